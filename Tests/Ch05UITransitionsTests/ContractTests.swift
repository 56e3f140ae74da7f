import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch05UITransitionsSolution
#else
    import Ch05UITransitions
#endif

// Chapter 05's contract (the reading's "Your task"), explored on its own:
// - a flow of three transitions with its task cancelled before it starts and right after
//   every step of its log, and two callers presenting at once;
// - the announcement board let go of before its task takes an announcement, right after
//   every step of its log, and after its stream has ended;
// - the detail presenter tapped a second time before the first detail's task starts and
//   right after every step of its log, and tapped three times at once.
// Each step is a log entry of the screen host: `ScreenHost.onEntry` acts in the same turn of
// the main actor as the entry, so a point is exactly that point, with no race. Each part runs
// in a child process (an exit test): a wrapper that resumes twice, or an `unowned self`
// reached after the board is gone, traps there only.

/// Lessons only the contract suite teaches.
enum ContractBugs {
    static let boardReleaseBroken = reading05.lesson(
        "the board does not stop as the reading says once the app lets go of it",
        "the announcement on its way to the screen (if any) finishes; after it, the board starts no other announcement, is released, and its task ends",
        section: "When the app lets go in the middle")
}

private let reading05 = ChapterReading("05-UITransitions")

// MARK: The wrappers at every cancel point

/// One transition of the flow, and the note its caller writes once the await has returned.
private struct FlowStep {
    let title: String?
    let entries: [String]
    let note: String

    static func present(_ title: String) -> FlowStep {
        FlowStep(
            title: title, entries: ["\(title).viewDidLoad", "\(title).viewWillAppear", "\(title).viewDidAppear"],
            note: "after presentAsync(\(title))")
    }

    static func dismiss(_ title: String) -> FlowStep {
        FlowStep(
            title: nil, entries: ["\(title).viewWillDisappear", "\(title).viewDidDisappear"],
            note: "after dismissAsync()")
    }
}

/// The flow: present "Profile", dismiss it, present "Settings".
private let flow: [FlowStep] = [.present("Profile"), .dismiss("Profile"), .present("Settings")]
/// Its log without a cancel.
private let flowLog = flow.flatMap { $0.entries + [$0.note] }
/// What the flow's task notes when a wrapper throws CancellationError.
private let threwCancellation = "the flow threw CancellationError"

/// What the log may go on with after a cancel right after entry `point` (0: before the flow
/// started): the rest of the transition under way, then either its note and the next
/// wrapper's CancellationError, or CancellationError at once (the reading leaves that open).
private func allowedAfterCancel(at point: Int) -> [[String]] {
    guard point > 0 else { return [[threwCancellation]] }
    var position = 0
    for (index, step) in flow.enumerated() {
        let all = step.entries + [step.note]
        let isLast = index == flow.count - 1
        if point <= position + all.count {
            let done = point - position
            if done == all.count { return isLast ? [[]] : [[threwCancellation]] }
            let rest = Array(step.entries.dropFirst(done))
            return [rest + [step.note] + (isLast ? [] : [threwCancellation]), rest + [threwCancellation]]
        }
        position += all.count
    }
    return [[]]
}

/// Whether `entry` starts a transition.
private func startsTransition(_ entry: String) -> Bool {
    entry.hasSuffix(".viewDidLoad") || entry.hasSuffix(".viewWillAppear") || entry.hasSuffix(".viewWillDisappear")
}

/// One run's world: the probe, and the host the flow creates on the main actor.
@MainActor
final class FlowWorld: Sendable {
    nonisolated let probe: StepProbe
    private(set) var host: ScreenHost?

    nonisolated init(probe: StepProbe) {
        self.probe = probe
    }

    /// A host whose every log entry is a step of the probe.
    func makeHost() -> ScreenHost {
        let host = ScreenHost()
        host.onEntry { [probe] entry in probe.step(entry) }
        self.host = host
        return host
    }
}

/// The flow, on the main actor, noting after each await and when a wrapper throws.
@MainActor
private func runFlow(_ world: FlowWorld) async throws {
    let host = world.makeHost()
    do {
        for step in flow {
            if let title = step.title {
                try await host.presentAsync(Screen(title))
            } else {
                try await host.dismissAsync()
            }
            host.note(step.note)
        }
    } catch {
        host.note(error is CancellationError ? threwCancellation : "the flow threw \(error)")
        throw error
    }
}

/// Lets every transition that started finish (a wrapper that returned early leaves one
/// running), within the hang limit.
@MainActor
private func settle(_ host: ScreenHost) async {
    let started = host.log.filter { $0.hasSuffix(".viewWillAppear") || $0.hasSuffix(".viewWillDisappear") }.count
    _ = await withinHangLimit(hangLimit) { await host.transitionsFinished.reach(started) }
}

/// What every run of the flow must keep.
@MainActor
private func flowKept(_ run: CancelPointRun<Void>, _ world: FlowWorld) async -> [Violation] {
    guard let host = world.host else { return [] }
    guard run.outcome != nil else {
        return [Violation(Bugs.neverResumes, "the flow: \(describeOutcome(run.outcome)); the log: \(host.log)")]
    }
    await settle(host)
    let log = host.log
    guard let point = run.cancelAfter else {
        return log == flowLog
            ? [] : [Violation(Bugs.returnsBeforeTransitionEnds, "without a cancel, the log: \(log)")]
    }
    // Up to the cancel, the run is the run without a cancel; where that one already went
    // wrong, its finding says so, and the points after it would only repeat it.
    guard log.prefix(point) == flowLog.prefix(point) else { return [] }
    let after = Array(log.dropFirst(point))
    let allowed = allowedAfterCancel(at: point)
    guard !allowed.contains(after) else { return [] }
    let rest = allowed.map { Set($0) }.reduce(Set<String>()) { $0.union($1) }
    let lesson =
        after.contains { startsTransition($0) && !rest.contains($0) }
        ? Bugs.cancelledTaskStillTransitions : Bugs.cancelledMidTransition
    let reading = allowed.map { "\($0)" }.joined(separator: " or ")
    return [Violation(lesson, "after the cancel, the log went on with \(after); the reading allows \(reading)")]
}

/// Every cancel point of the flow.
private func exploreFlowCancels() async {
    let report = await exploreCancelPoints(
        "a task that presents \"Profile\", dismisses it and presents \"Settings\"",
        world: { probe in FlowWorld(probe: probe) },
        operation: { @MainActor world in try await runFlow(world) }
    ) { run, world in await flowKept(run, world) }
    report.record()
}

/// Two callers present at once: each await returns once its own screen is on screen.
@MainActor
private func twoCallersAtOnce() async {
    let host = ScreenHost()
    let tasks = ["Profile", "Settings"].map { title in
        Task { @MainActor in
            try await host.presentAsync(Screen(title))
            host.note("after presentAsync(\(title))")
        }
    }
    for task in tasks {
        guard await awaitResult(of: { try await task.value }, orRecord: Bugs.neverResumes) != nil else { return }
    }
    await settle(host)
    let log = host.log
    for title in ["Profile", "Settings"] {
        guard let appeared = log.firstIndex(of: "\(title).viewDidAppear"),
            let returned = log.firstIndex(of: "after presentAsync(\(title))"), returned > appeared
        else {
            Bugs.returnsBeforeTransitionEnds.record("Two callers at once, the log: \(log)")
            return
        }
    }
    if Set(host.stack.map(\.title)) != ["Profile", "Settings"] {
        Bugs.returnsBeforeTransitionEnds.record(
            "Two callers at once: the screens on the host: \(host.stack.map(\.title))")
    }
}

// MARK: The board let go of at every point

/// The board, held by the app (this object) until a point of the test lets go of it.
@MainActor
private final class BoardApp {
    var board: AnnouncementBoard?
    var entries = 0
}

/// A new host, and a board on it that has started, with `titles` sent to its stream. The
/// board goes into `board`, which then holds the only reference to it.
@MainActor
func startBoard(into board: inout AnnouncementBoard?, sending titles: [String]) -> (
    host: ScreenHost, task: Task<Void, Never>?, input: AsyncStream<String>.Continuation
) {
    let host = ScreenHost()
    let (announcements, input) = AsyncStream.makeStream(of: String.self)
    board = AnnouncementBoard(host: host, announcements: announcements)
    board?.start()
    for title in titles { input.yield(title) }
    return (host, board?.task, input)
}

/// The board's log with "Welcome" and "News" waiting in the stream, and no release.
private let boardLog = [
    "Welcome.viewDidLoad", "Welcome.viewWillAppear", "Welcome.viewDidAppear", "showing Welcome",
    "Welcome.viewWillDisappear", "Welcome.viewDidDisappear",
    "News.viewDidLoad", "News.viewWillAppear", "News.viewDidAppear", "showing News",
]

/// How much of ``boardLog`` the contract wants once the app let go right after entry `point`:
/// the announcement under way finishes (up to its "showing" note), nothing after it starts.
private func boardEnd(releasedAt point: Int) -> Int {
    if point == 0 { return 0 }
    return point <= 4 ? 4 : boardLog.count
}

/// Lets go of the board right after entry `point` of its log (0: before its task took the
/// first announcement) and checks what the contract promises. False once it recorded a problem.
@MainActor
private func releaseBoard(at point: Int) async -> Bool {
    let app = BoardApp()
    let (host, task, input) = startBoard(into: &app.board, sending: ["Welcome", "News"])
    defer { input.finish() }  // the stream stays open until the end: only a cancel ends the task
    weak let released = app.board
    host.onEntry { _ in
        app.entries += 1
        if app.entries == point { app.board = nil }
    }
    if point == 0 { app.board = nil }
    let when =
        point == 0 ? "before its task took the first announcement" : "right after \"\(boardLog[point - 1])\""
    let ended = await withinHangLimit(hangLimit) { await task?.value }
    if case .stillSuspended = ended {
        if app.board != nil {
            Bugs.neverShows.record("The log stopped at \(host.log.count) entries: \(host.log)")
        } else if released != nil {
            Bugs.ownerNeverReleased.record("The app let go of the board \(when); it is still in memory.")
        } else {
            Bugs.taskOutlivesOwner.record("The app let go of the board \(when); its task is still running.")
        }
        return false
    }
    if released != nil {
        Bugs.ownerNeverReleased.record("The app let go of the board \(when); it is still in memory.")
        return false
    }
    if task?.isCancelled != true {
        Bugs.taskOutlivesOwner.record("The app let go of the board \(when); its task ended without being cancelled.")
        return false
    }
    let expected = Array(boardLog.prefix(boardEnd(releasedAt: point)))
    if host.log != expected {
        // The same steps in another order: an await returned before its transition ended.
        let lesson =
            host.log.sorted() == expected.sorted() ? Bugs.returnsBeforeTransitionEnds : ContractBugs.boardReleaseBroken
        lesson.record(
            "The app let go of the board \(when).\n  Expected: \(expected.joined(separator: " → "))\n  The log:  \(host.log.joined(separator: " → "))"
        )
        return false
    }
    return true
}

/// The stream ends after two announcements: the board shows both, its task ends, and the app
/// can still let go of the board.
@MainActor
private func boardAfterTheStreamEnded() async {
    var board: AnnouncementBoard?
    let (host, task, input) = startBoard(into: &board, sending: ["Welcome", "News"])
    input.finish()
    guard case .finished = await withinHangLimit(hangLimit, { await task?.value }) else {
        Bugs.neverShows.record(
            "The stream of announcements ended; the board's task is still running. The log: \(host.log)")
        return
    }
    if host.log != boardLog {
        Bugs.returnsBeforeTransitionEnds.record(
            "  Expected: \(boardLog.joined(separator: " → "))\n  The log:  \(host.log.joined(separator: " → "))")
    }
    weak let released = board
    board = nil
    if released != nil {
        Bugs.ownerNeverReleased.record("After the stream ended, the app let go of the board; it is still in memory.")
    }
}

// MARK: The presenter tapped again at every point

/// The presenter and the second tap, planted at one point of the first tap's log.
@MainActor
private final class Taps {
    let host = ScreenHost()
    let presenter: DetailPresenter
    var entries = 0
    var tappedAt: Int?
    var second: Task<Void, Never>?

    init() {
        presenter = DetailPresenter(host: host)
    }

    func tapLighthouse() {
        guard tappedAt == nil else { return }
        tappedAt = host.log.count
        presenter.show("Lighthouse")
        second = presenter.task
    }
}

/// The first tap's log, "Home" on screen: dismiss it, present "Harbour", note it.
private let harbourLog = [
    "Home.viewWillDisappear", "Home.viewDidDisappear",
    "Harbour.viewDidLoad", "Harbour.viewWillAppear", "Harbour.viewDidAppear", "showing Harbour",
]

/// Shows "Home" with the callback API and waits until it is on screen.
@MainActor
private func showHome(on host: ScreenHost) async -> Bool {
    host.present(Screen("Home"))
    return await awaitResult(of: { await host.transitionsFinished.reach(1) }, orRecord: Bugs.neverShows) != nil
}

/// Taps "Harbour", then "Lighthouse" right after entry `point` of the first tap's log (0:
/// before its task starts). False once it recorded a problem.
@MainActor
private func secondTap(at point: Int) async -> Bool {
    let taps = Taps()
    let host = taps.host
    guard await showHome(on: host) else { return false }
    host.onEntry { _ in
        taps.entries += 1
        if taps.entries == point { taps.tapLighthouse() }
    }
    taps.presenter.show("Harbour")
    let first = taps.presenter.task
    if point == 0 { taps.tapLighthouse() }
    let when = point == 0 ? "before the first task started" : "right after \"\(harbourLog[point - 1])\""
    guard await awaitResult(of: { await first?.value }, orRecord: Bugs.neverResumes) != nil else { return false }
    guard let tappedAt = taps.tappedAt, let second = taps.second else {
        Bugs.presenterWrong.record("The first tap's log stopped at: \(host.log)")
        return false
    }
    guard await awaitResult(of: { await second.value }, orRecord: Bugs.neverResumes) != nil else { return false }
    await settle(host)
    let log = host.log
    let afterTap = log.dropFirst(tappedAt)
    if afterTap.contains("Harbour.viewDidLoad") || (point < 3 && log.contains("showing Harbour")) {
        let lesson = first?.isCancelled == true ? Bugs.cancelledTaskStillTransitions : Bugs.previousTaskRunsOn
        lesson.record("The second tap came \(when); after it, \"Harbour\" started to appear: \(Array(afterTap))")
        return false
    }
    let shown = log.filter { $0 == "showing Lighthouse" }.count
    if host.stack.map(\.title) != ["Lighthouse"] || log.last != "showing Lighthouse" || shown != 1 {
        Bugs.presenterWrong.record(
            "The second tap came \(when). The screens: \(host.stack.map(\.title)); the log: \(log)")
        return false
    }
    return true
}

/// Three taps at once, "Harbour", "Lighthouse", "Harbour": only the last one appears.
@MainActor
private func threeQuickTaps() async {
    let host = ScreenHost()
    guard await showHome(on: host) else { return }
    let presenter = DetailPresenter(host: host)
    var tasks: [Task<Void, Never>] = []
    for title in ["Harbour", "Lighthouse", "Harbour"] {
        presenter.show(title)
        if let task = presenter.task { tasks.append(task) }
    }
    for task in tasks {
        guard await awaitResult(of: { await task.value }, orRecord: Bugs.neverResumes) != nil else { return }
    }
    await settle(host)
    let expected = ["Home.viewDidLoad", "Home.viewWillAppear", "Home.viewDidAppear"] + harbourLog
    if host.log != expected {
        // A replaced task that still presents: cancelled, the wrappers let it; not, the presenter did.
        let replacedRanOn = host.log.contains("Lighthouse.viewDidLoad") || host.log.count > expected.count
        let lesson =
            !replacedRanOn
            ? Bugs.presenterWrong
            : tasks.dropLast().allSatisfy(\.isCancelled) ? Bugs.cancelledTaskStillTransitions : Bugs.previousTaskRunsOn
        lesson.record(
            "Three quick taps, Harbour, Lighthouse, Harbour.\n  Expected: \(expected.joined(separator: " → "))\n  The log:  \(host.log.joined(separator: " → "))"
        )
    }
}

// MARK: The suite

/// A part of the contract, run in a child process of its own.
enum ContractPart: String, ChildScenario, CaseIterable {
    case wrappers, board, presenter

    @MainActor
    func run() async {
        switch self {
        case .wrappers:
            await exploreFlowCancels()
            await twoCallersAtOnce()
        case .board:
            // The first point that fails is enough: the others would repeat its lesson.
            for point in 0...boardLog.count {
                guard await releaseBoard(at: point) else { return }
            }
            await boardAfterTheStreamEnded()
        case .presenter:
            for point in 0...harbourLog.count {
                guard await secondTap(at: point) else { return }
            }
            await threeQuickTaps()
        }
    }

    var crashLesson: Lesson { self == .board ? Bugs.boardCrashed : Bugs.crashed }

    /// Runs this part in a child process, and explains a trap there as its crash lesson.
    func runInChildProcess(sourceLocation: SourceLocation = #_sourceLocation) async {
        if await Self.sharedChild.ranShared(self, crash: crashLesson, sourceLocation: sourceLocation) { return }
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .success, crashLesson.comment, sourceLocation: sourceLocation) {
                [log = log as CrashLog, part = self as ContractPart] in
                await log.runScenario { await part.run() }
            }
        }
        log.explain(run, as: crashLesson, sourceLocation: sourceLocation)
    }

    /// In CI's repeated runs, one child process runs every part (see `SharedChild`).
    static let sharedChild = SharedChild<ContractPart> { log, parts in
        await #expect(processExitsWith: .success, SharedChild<ContractPart>.launchComment) {
            [log = log as CrashLog, parts = parts as [ContractPart]] in
            await log.runScenarios(parts) { await $0.run() }
        }
    }
}

@Suite("Chapter 05: the contract at every cancel point, every release point and every second tap")
struct UITransitionsContractTests {
    @Test(
        "presentAsync and dismissAsync, cancelled before a flow or right after any step of it, keep the contract",
        .exposesBug(Bugs.returnsBeforeTransitionEnds, Bugs.cancelledTaskStillTransitions, Bugs.cancelledMidTransition))
    func wrappersAtEveryCancelPoint() async {
        await ContractPart.wrappers.runInChildProcess()
    }

    @Test(
        "The board, let go of at any point of its life, finishes the announcement under way and goes",
        .exposesBug(Bugs.ownerNeverReleased))
    func boardAtEveryReleasePoint() async {
        await ContractPart.board.runInChildProcess()
    }

    @Test(
        "A second tap at any point of the first one: the first detail starts nothing more, the last one shows",
        .exposesBug(Bugs.previousTaskRunsOn))
    func presenterAtEverySecondTap() async {
        await ContractPart.presenter.runInChildProcess()
    }
}
