import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch18AsyncStreamsSolution
#else
    import Ch18AsyncStreams
#endif

// Chapter 18's contract, explored on its own: the live route and the ride-log sync with their
// consumer cancelled before it starts and right after each fix it takes, and the upload
// screen on every short sequence of watch, close and upload events, against a model of what
// the reading promises under "Your task". No service here can fail, so there is no failure
// point to explore. The consumers run on the main actor, yet a stream can still end off it:
// AsyncStream's own `next()` runs on the global executor, so a consumer cancelled before it
// first asks for a fix ends the stream there. The live route's exploration therefore runs in
// a child process, like RouteFeedTests: an onTermination that assumes the main actor traps.

/// A world for one run: the bike computer and the probe that cancels the consumer.
struct RideWorld: Sendable {
    let device: BikeComputer
    let probe: StepProbe
}

/// The fixes a run got, checked against what the device recorded: in order, none missing
/// before the last one taken, none twice.
@MainActor
private func inOrder(_ got: [LocationFix], of device: BikeComputer) -> Bool {
    got == Array(device.recorded.prefix(got.count))
}

/// What a run without a cancel and a run with one must both keep, for the live route.
@MainActor
private func routeKept(_ run: CancelPointRun<[LocationFix]>, _ device: BikeComputer) async -> [Violation] {
    guard case .success(let got)? = run.outcome else {
        return [Violation(Bugs.routeNeverFinishes, "the recorder's loop: \(describeOutcome(run.outcome))")]
    }
    if !inOrder(got, of: device) || (run.isBaseline && got != device.recorded) {
        return [Violation(Bugs.liveFixesLost, "the recorder got \(numbers(got)) of \(numbers(device.recorded))")]
    }
    // Ended by the ride or by the cancel, the stream must close the link, without another fix.
    if case .stillSuspended = await withinHangLimit(hangLimit, { await device.liveLinks.fall(to: 0) }) {
        return [Violation(Bugs.liveLinkLeftOpen, "the recorder's loop ended; the live link is still open")]
    }
    let delivered = device.delivered.value
    let late = device.recordFix()
    if device.delivered.value > delivered {
        return [Violation(Bugs.liveLinkLeftOpen, "\(late), recorded after the loop ended, was still sent to the app")]
    }
    return []
}

/// The live route at every cancel point; run in a child process (see the top of this file).
private func exploreTheLiveRoute() async {
    let report = await exploreCancelPoints(
        "routeFixes(from:), three fixes, then the ride ends",
        world: { probe in RideWorld(device: BikeComputer(), probe: probe) },
        operation: { @MainActor world in
            var got: [LocationFix] = []
            let fixes = routeFixes(from: world.device)
            world.device.recordFix()
            for await fix in fixes {
                got.append(fix)
                world.probe.step("the recorder took \(fix)")
                if fix.number < 3 { world.device.recordFix() } else { world.device.endRide() }
            }
            return got
        }
    ) { run, world in await routeKept(run, world.device) }
    report.record()
}

/// What every run must keep, for the ride-log sync.
@MainActor
private func syncKept(_ run: CancelPointRun<[LocationFix]>, _ device: BikeComputer) -> [Violation] {
    guard case .success(let got)? = run.outcome else {
        return [Violation(Bugs.syncNeverFinishes, "the sync's loop: \(describeOutcome(run.outcome))")]
    }
    if !inOrder(got, of: device) || (run.isBaseline && got != device.recorded) {
        return [Violation(Bugs.loggedFixesLost, "the sync got \(numbers(got)) of \(numbers(device.recorded))")]
    }
    // Whatever was read from the device and never taken sat in the app's memory.
    let neverTaken = device.delivered.value - got.count
    if neverTaken > BikeComputer.appMemoryLimit {
        return [
            Violation(
                Bugs.syncHoldsTooMuch,
                "\(device.delivered.value) fixes were read from the bike computer and the sync took \(got.count); the limit is \(BikeComputer.appMemoryLimit)"
            )
        ]
    }
    return []
}

// MARK: The upload screen against its model

/// One step of a sequence: the screen watches a new upload or closes, or an upload reports.
enum ScreenOp: String, Sendable, CustomStringConvertible, CaseIterable {
    case watchNew, reportNewest, reportPrevious, completeNewest, completePrevious, close

    var description: String {
        switch self {
        case .watchNew: "watch(_:) a new upload"
        case .reportNewest: "the newest upload reports progress"
        case .reportPrevious: "the upload before it reports progress"
        case .completeNewest: "the newest upload completes"
        case .completePrevious: "the upload before it completes"
        case .close: "close()"
        }
    }

    /// The upload the step is about, counted from 1, given how many have been watched.
    func target(uploads: Int) -> Int? {
        switch self {
        case .reportNewest, .completeNewest: uploads > 0 ? uploads : nil
        case .reportPrevious, .completePrevious: uploads > 1 ? uploads - 1 : nil
        case .watchNew, .close: nil
        }
    }

    var completes: Bool { self == .completeNewest || self == .completePrevious }
}

/// What the screen shows after a step: the bar's and the label's value and redraws, and,
/// after the last step, the observers left on uploads the screen no longer follows.
struct ScreenView: Sendable, Equatable, CustomStringConvertible {
    var bar: Double?
    var label: Double?
    var barRedraws = 0
    var labelRedraws = 0
    var observersLeft: Int?

    var description: String {
        let shown =
            "bar \(percentages(bar.map { [$0] } ?? [])) (\(barRedraws) redraws), label \(percentages(label.map { [$0] } ?? [])) (\(labelRedraws) redraws)"
        return observersLeft.map { "\(shown), \($0) observers left" } ?? shown
    }
}

/// The fraction the step at `index` reports: different for every step.
private func fraction(at index: Int) -> Double { Double(index + 1) / 100 }

/// The contract as a model: the screen follows the upload it watched last, until that upload
/// completes or `close()`; it shows each fraction of that upload on the bar and the label,
/// and nothing of any other. At the end (the screen closed, each upload still running
/// reporting again until no observer is left), it shows nothing new and no upload has an
/// observer left.
func screenModel(_ steps: [ScreenOp]) -> [ScreenView] {
    var uploads = 0
    var completed: Set<Int> = []
    var following: Int?
    var view = ScreenView()
    var views: [ScreenView] = steps.enumerated().map { index, step in
        switch (step, step.target(uploads: uploads)) {
        case (.watchNew, _):
            uploads += 1
            following = uploads
        case (.close, _):
            following = nil
        case (_, let target?) where !completed.contains(target):
            if step.completes {
                completed.insert(target)
                if following == target { following = nil }
            } else if following == target {
                view.bar = fraction(at: index)
                view.label = fraction(at: index)
                view.barRedraws += 1
                view.labelRedraws += 1
            }
        default:
            break  // no such upload, or it has completed: nothing happens
        }
        return view
    }
    view.observersLeft = 0
    views.append(view)
    return views
}

/// The real screen, step by step. After a step, it waits for the redraws the model expects
/// (bounded: it pays only when they never come), then lets the main queue run what is left.
@MainActor
func screenRun(_ steps: [ScreenOp]) async -> [ScreenView] {
    let bar = ProgressDisplay()
    let label = ProgressDisplay()
    let screen = UploadScreen(bar: bar, label: label)
    var uploads: [RideUpload] = []
    var completed: Set<Int> = []
    var views: [ScreenView] = []
    let expected = screenModel(steps)
    func now() -> ScreenView {
        ScreenView(
            bar: bar.current, label: label.current, barRedraws: bar.redraws.value,
            labelRedraws: label.redraws.value)
    }
    for (index, step) in steps.enumerated() {
        switch (step, step.target(uploads: uploads.count)) {
        case (.watchNew, _):
            uploads.append(RideUpload())
            screen.watch(uploads[uploads.count - 1])
        case (.close, _):
            screen.close()
        case (_, let target?) where !completed.contains(target):
            if step.completes {
                completed.insert(target)
                uploads[target - 1].complete()
            } else {
                uploads[target - 1].report(fraction(at: index))
            }
        default:
            break
        }
        let (barTarget, labelTarget) = (expected[index].barRedraws, expected[index].labelRedraws)
        let redrawn = await withinHangLimit(hangLimit) {
            await bar.redraws.reach(barTarget)
            await label.redraws.reach(labelTarget)
        }
        await MainQueue.drain()
        await MainQueue.drain()
        views.append(now())
        if case .stillSuspended = redrawn { return views }
    }
    screen.close()
    // Each upload still running reports again after close(), until no observer is left: a task
    // that close() cancelled before it started lets go of its stream only once it runs, and a
    // stream that learns of its end from yield's .terminated lets go at the next report.
    // Bounded: a screen that keeps watching is caught, after the hang limit.
    let running = uploads.enumerated().filter { !completed.contains($0.offset + 1) }.map(\.element)
    let observersLeft = { running.map(\.observers.value).reduce(0, +) }
    _ = await withinHangLimit(hangLimit) { @MainActor in
        repeat {
            for upload in running { upload.report(0.99) }
            await MainQueue.drain()
        } while observersLeft() > 0 && !Task.isCancelled
    }
    await MainQueue.drain()
    await MainQueue.drain()
    var last = now()
    last.observersLeft = observersLeft()
    views.append(last)
    return views
}

/// The screen against its model, on sequences of `length` steps.
private func screenCheck(length: Int = 8) -> ModelCheck<ScreenOp, ScreenView> {
    ModelCheck(
        "UploadScreen", lesson: Bugs.screenSequenceBroken, length: length,
        generate: { random in random.pick(ScreenOp.allCases) },
        real: { steps in await screenRun(steps) },
        model: screenModel)
}

@Suite("Chapter 18: the contract at every cancel point, and the upload screen on every short sequence")
struct AsyncStreamsContractTests {
    @Test(
        "The live route, its consumer cancelled before it starts or after any fix, ends and closes the link",
        .exposesBug(Bugs.liveLinkLeftOpen))
    func routeAtEveryCancelPoint() async {
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .success, Bugs.terminationCrashed.comment) {
                [log = log as CrashLog] in
                await log.runScenario { await exploreTheLiveRoute() }
            }
        }
        log.explain(run, as: Bugs.terminationCrashed)
    }

    @Test(
        "The ride-log sync, cancelled before it starts or after any fix, ends, in order, holding little")
    func syncAtEveryCancelPoint() async {
        let report = await exploreCancelPoints(
            "loggedFixes(from:), a log of 12 fixes",
            world: { probe in RideWorld(device: BikeComputer(), probe: probe) },
            operation: { @MainActor world in
                // The ride is over, and its log waits in the device.
                world.device.recordFixes(12)
                world.device.endRide()
                var got: [LocationFix] = []
                for await fix in loggedFixes(from: world.device) {
                    got.append(fix)
                    world.probe.step("the sync took \(fix)")
                }
                return got
            }
        ) { run, world in await syncKept(run, world.device) }
        report.record()
    }

    @Test(
        "Every sequence of up to three watch, close and upload steps matches the contract",
        .exposesBug(Bugs.screenSequenceBroken))
    func everyShortScreenSequence() async {
        let check = screenCheck(length: 3)
        // Shortest first: the first sequence that goes wrong is already a shortest one.
        for length in 1...3 {
            for sequence in everySequence(of: length, from: ScreenOp.allCases)
            where await check.mismatch(sequence) != nil {
                await check.replay(sequence).record()
                return
            }
        }
    }

    @Test(
        "Sequences of watch, close and upload steps from fixed seeds match the contract",
        .exposesBug(Bugs.screenSequenceBroken))
    func screenSequencesMatchTheModel() async {
        await screenCheck().explore().record()
    }
}
