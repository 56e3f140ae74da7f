@preconcurrency import LegacyCameraSDK
import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch15IsolationBoundariesSolution
#else
    import Ch15IsolationBoundaries
#endif

// Chapter 15's contract, explored on its own: the screen on every short sequence of start,
// frames, stop, shutter and release, against a model of what the reading promises under "Your
// task", and the export cancelled before it starts and right after each update of its bar. The
// camera roll can't fail a save, so there is no failure point to explore. A wrong fix can claim
// the main actor on the SDK's queue (`MainActor.assumeIsolated`, a main-actor completion), which
// stops the process: the sequences run in a child process, like PreviewTests.

// MARK: The screen against its model

/// One step of a sequence, as the learner's screen sees it.
enum CameraOp: String, Sendable, CustomStringConvertible, CaseIterable {
    case start, stop, frame, burst, shutter, release

    var description: String {
        switch self {
        case .start: "start()"
        case .stop: "stop()"
        case .frame: "the sensor delivers the next frame"
        case .burst: "the sensor delivers three frames while the main actor is busy"
        case .shutter: "shutterTapped()"
        case .release: "the last reference to the screen is dropped"
        }
    }
}

/// What the screen shows once a step has settled: the preview's frame, the photos, the
/// thumbnail, whether the screen is still alive, and the first broken promise seen on the way
/// (a frame off the main actor, out of order, or one the SDK never delivered).
struct CameraView: Sendable, Equatable, CustomStringConvertible {
    var preview: Int?
    var photoIDs: [String]
    var thumbnail: String?
    var alive = true
    var problem: String?

    var description: String {
        var shown =
            "preview \(preview.map { "frame \($0)" } ?? "empty"), photoIDs \(photoIDs), thumbnail \(thumbnail ?? "none")"
        if !alive { shown += ", screen freed" }
        if let problem { shown += ", but \(problem)" }
        return shown
    }
}

/// The photo taken in an earlier session, which the screen starts with.
private let earlierPhoto = "earlier-photo"

/// The contract as a model. A frame counts while the preview runs (after `start()`, before
/// `stop()`, while the screen is alive); once the SDK has handed over a frame, the preview ends
/// on it, on the main actor, in order (a burst may skip its stale frames, never the newest). A
/// photo taken joins `photoIDs` after the earlier ones and shows as the thumbnail. Once nothing
/// holds the screen, it is freed, and nothing more is drawn.
func cameraModel(_ steps: [CameraOp]) -> [CameraView] {
    var view = CameraView(photoIDs: [earlierPhoto])
    var running = false
    var frames = 0
    var photos = 0
    return steps.map { step in
        switch step {
        case .start where view.alive: running = true
        case .stop where view.alive: running = false
        case .frame, .burst:
            frames += step == .burst ? 3 : 1
            if running { view.preview = frames }
        case .shutter where view.alive:
            photos += 1
            view.photoIDs.append("photo-\(photos)")
            view.thumbnail = "photo-\(photos)"
        case .release:
            view.alive = false
            running = false
        default:
            break  // the screen is gone: nothing to call
        }
        return view
    }
}

/// The first broken promise in what `screen` drew, given the frames that counted (`counted`).
private func previewProblem(_ preview: SimulatedScreen<Int>, counted: Set<Int>) -> String? {
    var last = 0
    for frame in preview.frames {
        if !frame.drawnOnMainActor {
            return "frame \(frame.content) was drawn on \(CameraSession.delegateQueueLabel), not on the main actor"
        }
        if !counted.contains(frame.content) {
            return "the preview drew frame \(frame.content), which the SDK delivered while it was not running"
        }
        if frame.content <= last { return "the preview drew frame \(frame.content) after frame \(last)" }
        last = frame.content
    }
    return nil
}

/// Holds the screen weakly, for the main actor to ask whether it is still alive.
@MainActor
private final class WeakScreen {
    weak var screen: CameraScreen?
}

/// The real screen, step by step. After a step it waits (bounded: it pays only when they never
/// come) for the SDK's callbacks, the frame and the photo the model expects, and, once the
/// screen is dropped, for it to be freed.
@MainActor
func cameraRun(_ steps: [CameraOp]) async -> [CameraView] {
    let session = CameraSession(trace: traceToStandardError)
    var screen: CameraScreen? = CameraScreen(
        session: session, cameraRoll: CameraRoll(), photoIDs: [earlierPhoto])
    let preview = screen!.preview
    let lastPhoto = screen!.lastPhoto
    let weakScreen = WeakScreen()
    weakScreen.screen = screen
    var photoIDs = [earlierPhoto]
    var frames = 0
    var callbacks = 0
    var taps = 0
    var counted: Set<Int> = []
    var views: [CameraView] = []
    let expected = cameraModel(steps)
    for (index, step) in steps.enumerated() {
        var problem: String?
        switch step {
        case .start: screen?.start()
        case .stop: screen?.stop()
        case .frame, .burst:
            let running = session.isRunning
            let burst = step == .burst ? 3 : 1
            let numbers = (frames + 1)...(frames + burst)
            frames += burst
            if running {
                callbacks += burst
                if screen != nil { counted.formUnion(numbers) }
            }
            if step == .frame {
                session.sensorDelivers(frame: frames)
            } else if !handsOverWhileMainActorIsBusy(numbers, from: session) {
                problem = "the SDK's queue was still busy with frames \(numbers) while the main actor was busy"
            }
        case .shutter:
            if screen != nil {
                taps += 1
                callbacks += 1
            }
            screen?.shutterTapped()
        case .release: screen = nil
        }
        let (want, callbacksMade, tapsMade) = (expected[index], callbacks, taps)
        let settled = await withinHangLimit(hangLimit) { @MainActor in
            await session.callbacksReturned.reach(callbacksMade)
            await lastPhoto.draws.reach(tapsMade)
            // The count first: a frame is on screen before it is counted.
            while let frame = want.preview, case let seen = preview.draws.value, preview.content != frame {
                await preview.draws.reach(seen + 1)
            }
        }
        await MainQueue.drain()
        await MainQueue.drain()
        if screen == nil, weakScreen.screen != nil {
            // Work the screen scheduled may still hold it for a moment: wait for it to end.
            let gaveUp = Locked(false)
            _ = await withinHangLimit(hangLimit) { @MainActor in
                while weakScreen.screen != nil, !gaveUp.withLock({ $0 }) { await MainQueue.drain() }
            }
            gaveUp.withLock { $0 = true }
        }
        photoIDs = weakScreen.screen?.photoIDs ?? photoIDs
        let thumbnailOffMain = lastPhoto.frames.first { !$0.drawnOnMainActor }.map {
            "the thumbnail of \"\($0.content)\" was drawn on \(CameraSession.delegateQueueLabel), not on the main actor"
        }
        views.append(
            CameraView(
                preview: preview.content, photoIDs: photoIDs, thumbnail: lastPhoto.content,
                alive: weakScreen.screen != nil,
                problem: problem ?? previewProblem(preview, counted: counted) ?? thumbnailOffMain))
        if case .stillSuspended = settled { return views }
    }
    screen?.stop()
    return views
}

/// The screen against its model, on sequences of `length` steps.
private func cameraCheck(length: Int) -> ModelCheck<CameraOp, CameraView> {
    ModelCheck(
        "CameraScreen", lesson: Bugs.screenSequenceBroken, length: length,
        generate: { random in random.pick(CameraOp.allCases) },
        real: { steps in await cameraRun(steps) },
        model: cameraModel)
}

/// In a child process: every sequence of up to two steps, shortest first, then sequences of six
/// from the fixed seeds; records the first that goes wrong.
@MainActor
func cameraSequences() async {
    let short = cameraCheck(length: 2)
    for length in 1...2 {
        for sequence in everySequence(of: length, from: CameraOp.allCases) where await short.mismatch(sequence) != nil {
            await short.replay(sequence).record()
            return
        }
    }
    await cameraCheck(length: 6).explore().record()
}

// MARK: The export at every cancel point

/// A world for one export: its camera roll, and the first update of the bar that ran ahead of
/// the saves or off the main actor. The caller makes the screen, with three photos.
struct ExportWorld: Sendable {
    static let ids = ["photo-1", "photo-2", "photo-3"]
    let probe: StepProbe
    let roll = CameraRoll()
    let ahead = Locked<String?>(nil)
    let offMain = Locked<String?>(nil)

    /// Watches the export's bar: each update is a step for the probe.
    func watch(_ bar: ProgressBar) {
        let (roll, probe, ahead, offMain) = (roll, probe, ahead, offMain)
        bar.onUpdate = { @Sendable update in
            let saved = roll.saved.count
            if update.completed > saved {
                ahead.withLock { $0 = $0 ?? "the bar showed \(update) while the camera roll had saved \(saved)" }
            }
            if !update.onMainActor { offMain.withLock { $0 = $0 ?? "the bar showed \(update) off the main actor" } }
            probe.step("the bar showed \(update)")
        }
    }
}

/// What every export must keep, cancelled or not.
private func exportKept(_ run: CancelPointRun<ProgressBar.Update?>, _ world: ExportWorld) -> [Violation] {
    guard case .success(let shown)? = run.outcome else {
        return [Violation(Bugs.exportIncomplete, "exportAll(): \(describeOutcome(run.outcome))")]
    }
    let saved = world.roll.saved
    if saved != Array(ExportWorld.ids.prefix(saved.count)) || (run.isBaseline && saved != ExportWorld.ids) {
        return [Violation(Bugs.exportIncomplete, "the camera roll saved \(saved) of \(ExportWorld.ids)")]
    }
    if let ahead = world.ahead.withLock({ $0 }) { return [Violation(Bugs.progressAhead, ahead)] }
    if let offMain = world.offMain.withLock({ $0 }) { return [Violation(Bugs.progressOffMainActor, offMain)] }
    let upToDate = shown.map { $0.completed == saved.count && $0.total == ExportWorld.ids.count } ?? saved.isEmpty
    if !upToDate {
        return [
            Violation(
                Bugs.progressLate,
                "exportAll() returned with \(saved.count) of 3 photos saved; the bar showed \(shown.map { "\($0)" } ?? "nothing")"
            )
        ]
    }
    return []
}

@Suite("Chapter 15: the contract on every short sequence, and the export at every cancel point")
struct IsolationBoundariesContractTests {
    @Test(
        "Every short sequence of start, frames, stop, shutter and release matches the contract",
        .exposesBug(Bugs.completionTrapped, Bugs.crashed))
    func everyShortCameraSequence() async {
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .success, Bugs.crashed.comment) { [log = log as CrashLog] in
                await log.runScenario { await cameraSequences() }
            }
        }
        let callback = unfinishedCallback(in: log.contents) ?? ""
        let file = callback.hasPrefix("capturePhoto") ? "CameraScreen.swift" : "CameraScreen+Preview.swift"
        let otherwise = callback.hasPrefix("capturePhoto") ? Bugs.completionTrapped : Bugs.delegateTrapped
        let trap = lessonForTrap(in: log, callbackFile: file, otherwise: otherwise)
        log.explain(run, as: trap.lesson, detail: trap.detail)
    }

    @Test(
        "exportAll(), cancelled before it starts or after any update, keeps the bar behind the saves",
        .exposesBug(Bugs.progressOffMainActor))
    func exportAtEveryCancelPoint() async {
        let report = await exploreCancelPoints(
            "exportAll() of three photos",
            world: { probe in ExportWorld(probe: probe) },
            operation: { @MainActor world in
                let screen = CameraScreen(session: CameraSession(), cameraRoll: world.roll, photoIDs: ExportWorld.ids)
                world.watch(screen.exportProgress)
                await screen.exportAll()
                return screen.exportProgress.updates.last
            }
        ) { run, world in exportKept(run, world) }
        report.record()
    }
}
