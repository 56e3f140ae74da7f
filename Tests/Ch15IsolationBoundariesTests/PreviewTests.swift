import Dispatch
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
/// a time, each once the one before is on screen; then frames 4, 5 and 6 at once, while the main
/// actor is busy, after which the preview must show frame 6.
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
    let firstFrames = screen.preview.frames
    // A burst: frames 4, 5 and 6 arrive while the main actor is busy. The preview may skip a
    // stale frame, but it must end on the newest one.
    if deliverWhileMainActorIsBusy(4...6, from: session) {
        let preview = screen.preview
        await awaitResult(
            of: {
                var drawn = 3
                while preview.content != 6 {
                    drawn += 1
                    await preview.draws.reach(drawn)
                }
            }, orRecord: Bugs.newestFrameNeverShown)
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
    let shown = firstFrames.map(\.content)
    if shown != [1, 2, 3] {
        Bugs.framesOutOfOrder.record("The SDK delivered frames [1, 2, 3], one at a time; the preview drew \(shown).")
    }
    screen.stop()
}

/// Has the sensor deliver `frames` and waits, without letting go of the main actor, until the
/// SDK's queue has handed every one of them to the delegate. False (and a recorded issue) if
/// the queue is still busy after the hang limit: a delegate that waits for the main actor.
@MainActor
func deliverWhileMainActorIsBusy(_ frames: ClosedRange<Int>, from session: CameraSession) -> Bool {
    guard handsOverWhileMainActorIsBusy(frames, from: session) else {
        Bugs.delegateWaitsForMainActor.record(
            "The SDK's queue was still busy with frames \(frames) while the main actor was busy elsewhere.")
        return false
    }
    return true
}

/// Has the sensor deliver `frames` and waits, without letting go of the main actor, until the
/// SDK's queue has handed every one of them to the delegate; false if it is still busy after the
/// hang limit. Records nothing.
@MainActor
func handsOverWhileMainActorIsBusy(_ frames: ClosedRange<Int>, from session: CameraSession) -> Bool {
    for number in frames { session.sensorDelivers(frame: number) }
    let delivered = DispatchSemaphore(value: 0)
    session.delegateQueue.async { delivered.signal() }
    let (seconds, attoseconds) = hangLimit.components
    let limit = DispatchTimeInterval.nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    return delivered.wait(timeout: .now() + limit) == .success
}

@Suite("Chapter 15: the live preview, from the SDK's delegate queue")
struct PreviewTests {
    @Test(
        "Each frame the SDK delivers on its queue is drawn on the main actor",
        .exposesBug(Bugs.assumeIsolatedOffMain, Bugs.crashed))
    func framesReachThePreview() async {
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .success, Bugs.crashed.comment) { [log = log as CrashLog] in
                await log.runScenario { await previewScenario() }
            }
        }
        let trap = lessonForTrap(in: log, callbackFile: "CameraScreen+Preview.swift", otherwise: Bugs.delegateTrapped)
        log.explain(run, as: trap.lesson, detail: trap.detail)
    }

    @Test("Once nothing else holds the screen, its started preview doesn't keep it alive")
    @MainActor
    func screenIsFreed() {
        let session = CameraSession()
        var screen: CameraScreen? = CameraScreen(session: session, cameraRoll: CameraRoll())
        screen?.start()
        screen?.stop()
        weak let released = screen
        screen = nil
        if released != nil {
            Bugs.screenKeptAlive.record(
                "After start() and stop(), the last reference to the screen was dropped, and the screen was still alive."
            )
        }
    }
}
