import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch05UITransitionsSolution
#else
    import Ch05UITransitions
#endif

private let reading = ChapterReading("05-UITransitions")

/// What can go wrong in this chapter, in the learner's words.
enum Bugs {
    static let returnsBeforeTransitionEnds = reading.lesson(
        "the await returns before the transition has finished",
        "the code after `await presentAsync`/`dismissAsync` ran before viewDidAppear/viewDidDisappear; resume the continuation from the transition's completion",
        section: "Resume from the completion")
    static let cancelledTaskStillTransitions = reading.lesson(
        "a cancelled task still starts a transition",
        "the task was cancelled before it called presentAsync/dismissAsync, yet the screen changed; check for cancellation first and throw CancellationError",
        section: "Check cancellation first")
    static let ownerNeverReleased = reading.lesson(
        "the board is never released",
        "the app let go of the AnnouncementBoard, but its task still holds it strongly, so it stays in memory for ever",
        section: "The owner and its task")
    static let taskOutlivesOwner = reading.lesson(
        "the board's task outlives the board",
        "the board went away without cancelling its task, which now waits for announcements for ever",
        section: "The owner and its task")
    static let neverShows = reading.lesson(
        "the board never shows an announcement",
        "start() should present a screen for each announcement that arrives",
        section: "The owner and its task")
    static let leftTheMainActor = reading.lesson(
        "the code after the await is off the main actor",
        "UI code must stay on the main actor, before and after every await",
        section: "Everything on the main actor")
    static let neverResumes = reading.lesson(
        "the awaited transition never returns",
        "the transition finished, but the caller is still suspended; resume the continuation exactly once, from the completion",
        section: "Resume from the completion")
    static let crashed = reading.lesson(
        "the transition wrapper crashed the process",
        "a continuation must be resumed exactly once; resuming twice traps",
        section: "Resume from the completion")
}

/// The chapter's scenarios. Each runs on the main actor, like the screen host, in a child
/// process of its own (an exit test), so that a wrapper that resumes twice traps there only.
enum Scenario: String, Codable, Sendable {
    case presentThenContinue, dismissThenContinue, cancelledTaskTransitions, boardGoesAway

    @MainActor
    func run() async {
        switch self {
        case .presentThenContinue: await Play.presentThenContinue()
        case .dismissThenContinue: await Play.dismissThenContinue()
        case .cancelledTaskTransitions: await Play.cancelledTaskTransitions()
        case .boardGoesAway: await Play.boardGoesAway()
        }
    }

    /// Runs this scenario in a child process; if the child traps, records `crash` with the
    /// runtime's last words.
    func runInChildProcess(sourceLocation: SourceLocation = #_sourceLocation) async {
        let log = CrashLog()
        let run = await #expect(processExitsWith: .success, Bugs.crashed.comment, sourceLocation: sourceLocation) {
            [log = log as CrashLog, scenario = self as Scenario] in
            await log.runScenario {
                await scenario.run()
            }
        }
        log.explain(run, as: Bugs.crashed, sourceLocation: sourceLocation)
    }
}

/// Presents `screen` with the callback API and waits for the transition to finish.
@MainActor
private func presentAndSettle(_ screen: Screen, on host: ScreenHost) async {
    host.present(screen)
    await awaitResult(of: { await host.transitionsFinished.reach(1) }, orRecord: Bugs.neverShows)
}

/// Records that the await returned too early, with both orders, if `log` is not `expected`.
private func expect(
    _ log: [String], is expected: [String], sourceLocation: SourceLocation = #_sourceLocation
) {
    guard log != expected else { return }
    Bugs.returnsBeforeTransitionEnds.record(
        "  Expected: \(expected.joined(separator: " → "))\n  The log:  \(log.joined(separator: " → "))",
        sourceLocation: sourceLocation)
}

/// What each scenario does, on the main actor.
@MainActor
private enum Play {
    static func presentThenContinue() async {
        let host = ScreenHost()
        _ = await awaitResult(
            of: { @MainActor in
                try await host.presentAsync(Screen("Profile"))
                #expect(MainQueue.isCurrent, Bugs.leftTheMainActor.comment)
                host.note("after presentAsync")
            }, orRecord: Bugs.neverResumes)
        expect(
            host.log,
            is: ["Profile.viewDidLoad", "Profile.viewWillAppear", "Profile.viewDidAppear", "after presentAsync"])
    }

    static func dismissThenContinue() async {
        let host = ScreenHost()
        await presentAndSettle(Screen("Settings"), on: host)
        _ = await awaitResult(
            of: { @MainActor in
                try await host.dismissAsync()
                #expect(MainQueue.isCurrent, Bugs.leftTheMainActor.comment)
                host.note("after dismissAsync")
            }, orRecord: Bugs.neverResumes)
        expect(
            Array(host.log.dropFirst(3)),
            is: ["Settings.viewWillDisappear", "Settings.viewDidDisappear", "after dismissAsync"])
    }

    static func cancelledTaskTransitions() async {
        let host = ScreenHost()
        let present = Task { try await host.presentAsync(Screen("Ad")) }
        present.cancel()  // before the task gets its first turn on the main actor
        let presented = await awaitResult(of: { try await present.value }, orRecord: Bugs.neverResumes)
        #expect(throws: CancellationError.self, Bugs.cancelledTaskStillTransitions.comment) { try presented?.get() }
        #expect(host.log.isEmpty, Bugs.cancelledTaskStillTransitions.comment)

        await presentAndSettle(Screen("Home"), on: host)
        let dismiss = Task { try await host.dismissAsync() }
        dismiss.cancel()
        let dismissed = await awaitResult(of: { try await dismiss.value }, orRecord: Bugs.neverResumes)
        #expect(throws: CancellationError.self, Bugs.cancelledTaskStillTransitions.comment) { try dismissed?.get() }
        #expect(host.topScreen?.title == "Home", Bugs.cancelledTaskStillTransitions.comment)
    }

    static func boardGoesAway() async {
        let host = ScreenHost()
        let (announcements, input) = AsyncStream.makeStream(of: String.self)
        var board: AnnouncementBoard? = AnnouncementBoard(host: host, announcements: announcements)
        board?.start()
        let task = board?.task
        input.yield("Welcome")
        // Its lifecycle (three entries) and the board's note: the board is waiting for the next one.
        await awaitResult(of: { await host.entries.reach(4) }, orRecord: Bugs.neverShows)

        weak let released = board
        board = nil
        #expect(released == nil, Bugs.ownerNeverReleased.comment)
        #expect(task?.isCancelled == true, Bugs.taskOutlivesOwner.comment)
        await awaitResult(of: { await task?.value }, orRecord: Bugs.taskOutlivesOwner)
    }
}

@Suite("Chapter 05: present and dismiss that you can await")
struct AsyncTransitionsTests {
    @Test(
        "After `await presentAsync`, the lifecycle is over: load, will appear, did appear, then the next line",
        .exposesBug(Bugs.returnsBeforeTransitionEnds))
    func presentAsyncWaitsForTheLifecycle() async {
        await Scenario.presentThenContinue.runInChildProcess()
    }

    @Test(
        "After `await dismissAsync`, the screen is gone: will disappear, did disappear, then the next line",
        .exposesBug(Bugs.returnsBeforeTransitionEnds))
    func dismissAsyncWaitsForTheLifecycle() async {
        await Scenario.dismissThenContinue.runInChildProcess()
    }

    @Test(
        "A cancelled task neither presents nor dismisses, and gets CancellationError",
        .exposesBug(Bugs.cancelledTaskStillTransitions))
    func cancelledTaskDoesNotTransition() async {
        await Scenario.cancelledTaskTransitions.runInChildProcess()
    }

    @Test(
        "When the app lets go of the board, the board is released and its task cancelled",
        .exposesBug(Bugs.ownerNeverReleased, Bugs.taskOutlivesOwner))
    func boardAndTaskGoAway() async {
        await Scenario.boardGoesAway.runInChildProcess()
    }
}
