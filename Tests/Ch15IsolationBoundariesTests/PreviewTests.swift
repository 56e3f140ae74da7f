@preconcurrency import LegacyCameraSDK
import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch15IsolationBoundariesSolution
#else
    import Ch15IsolationBoundaries
#endif

/// In a child process: starts the preview and has the sensor deliver frames 1, 2 and 3, one at
/// a time, each once the one before is on screen.
@MainActor
func previewScenario() async {
    let session = CameraSession(trace: traceToStandardError)
    let screen = CameraScreen(session: session, cameraRoll: CameraRoll())
    screen.start()
    let draws = screen.preview.draws
    for number in 1...3 {
        session.sensorDelivers(frame: number)
        guard await awaitResult(of: { await draws.reach(number) }, orRecord: Bugs.framesNeverShown) != nil else {
            return
        }
    }
    let frames = screen.preview.frames
    let isolatedConformance = mainActorConformance(marked: "MainActor").map {
        " \($0) isolates the conformance to the main actor, but nothing checks that when the SDK calls."
    }
    for frame in frames where !frame.drawnOnMainActor {
        Bugs.previewOffMainActor.record(
            "Frame \(frame.content) was drawn on \(CameraSession.delegateQueueLabel), not on the main actor."
                + (isolatedConformance ?? ""))
    }
    let shown = frames.map(\.content)
    if shown != [1, 2, 3] {
        Bugs.framesOutOfOrder.record("The SDK delivered frames [1, 2, 3], one at a time; the preview drew \(shown).")
    }
    screen.stop()
}

@Suite("Chapter 15: the live preview, from the SDK's delegate queue")
struct PreviewTests {
    @Test(
        "Each frame the SDK delivers on its queue is drawn on the main actor",
        .exposesBug(Bugs.assumeIsolatedOffMain, Bugs.crashed))
    func framesReachThePreview() async {
        let log = CrashLog()
        let run = await #expect(processExitsWith: .success, Bugs.crashed.comment) { [log = log as CrashLog] in
            await log.runScenario { await previewScenario() }
        }
        let trap = lessonForTrap(in: log, callbackFile: "CameraScreen+Preview.swift", otherwise: Bugs.delegateTrapped)
        log.explain(run, as: trap.lesson, detail: trap.detail)
    }
}
