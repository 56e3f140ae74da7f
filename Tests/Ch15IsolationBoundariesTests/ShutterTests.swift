@preconcurrency import LegacyCameraSDK
import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch15IsolationBoundariesSolution
#else
    import Ch15IsolationBoundaries
#endif

/// In a child process: taps the shutter; the SDK calls the completion on its queue.
@MainActor
func shutterScenario() async {
    let session = CameraSession(trace: traceToStandardError)
    let screen = CameraScreen(session: session, cameraRoll: CameraRoll())
    screen.shutterTapped()
    let draws = screen.lastPhoto.draws
    guard await awaitResult(of: { await draws.reach(1) }, orRecord: Bugs.photoNeverShown) != nil else { return }
    for frame in screen.lastPhoto.frames where !frame.drawnOnMainActor {
        Bugs.photoOffMainActor.record(
            "The thumbnail of \"\(frame.content)\" was drawn on \(CameraSession.delegateQueueLabel), not on the main actor."
        )
    }
    #expect(screen.photoIDs == ["photo-1"], Bugs.photoNeverShown.comment)
}

@Suite("Chapter 15: the shutter, and the SDK's completion handler")
struct ShutterTests {
    @Test(
        "A photo taken is added and shown on the main actor",
        .exposesBug(Bugs.completionTrapped, Bugs.crashed))
    func photoReachesTheScreen() async {
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .success, Bugs.crashed.comment) { [log = log as CrashLog] in
                await log.runScenario { await shutterScenario() }
            }
        }
        let trap = lessonForTrap(in: log, callbackFile: "CameraScreen.swift", otherwise: Bugs.completionTrapped)
        log.explain(run, as: trap.lesson, detail: trap.detail)
    }
}
