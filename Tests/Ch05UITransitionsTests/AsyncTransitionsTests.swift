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
    static let cancelledMidTransition = reading.lesson(
        "the await returns before a cancelled transition has finished",
        "the task was cancelled while the screen was still animating, and the code after `await presentAsync`/`dismissAsync` ran before viewDidAppear/viewDidDisappear; a transition that has started can't be taken back: let it finish, and resume only from its completion",
        section: "A cancel in the middle of a transition")
    static let neverStartsTransition = reading.lesson(
        "presentAsync/dismissAsync never starts the transition",
        "a task that is not cancelled must present (or dismiss) the screen: call present/dismiss on the host",
        section: "Resume from the completion")
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
    static let boardCrashed = reading.lesson(
        "the process crashed while the board was showing announcements",
        "see the runtime's words below: an `unowned self` reached after the app let go of the board traps (capture it weakly, strong for one announcement at a time), and so does a continuation resumed twice in presentAsync/dismissAsync",
        section: "When the app lets go in the middle")
    static let previousTaskRunsOn = reading.lesson(
        "a second show() lets the first one's task run on",
        "DetailPresenter.show(_:) stored a new Task over the old one without cancelling it, so the detail the user tapped first was still presented; cancel the stored task before you replace it",
        section: "Replacing a stored task")
    static let presenterWrong = reading.lesson(
        "DetailPresenter does not show the detail the user tapped last",
        "after the taps, the last tapped detail is on screen, alone, and its task has noted \"showing …\"",
        section: "Replacing a stored task")
}

/// The chapter's scenarios. Each runs on the main actor, like the screen host, in a child
/// process of its own (an exit test), so that a wrapper that resumes twice traps there only.
enum Scenario: String, ChildScenario, CaseIterable {
    case presentThenContinue, dismissThenContinue, cancelledTaskTransitions
    case cancelDuringPresent, cancelDuringDismiss
    case boardShowsInTurn, boardGoesAway, boardGoesAwayWhileShowing, secondTapReplacesFirst

    @MainActor
    func run() async {
        switch self {
        case .presentThenContinue: await Play.presentThenContinue()
        case .dismissThenContinue: await Play.dismissThenContinue()
        case .cancelledTaskTransitions: await Play.cancelledTaskTransitions()
        case .cancelDuringPresent: await Play.cancelDuringPresent()
        case .cancelDuringDismiss: await Play.cancelDuringDismiss()
        case .boardShowsInTurn: await Play.boardShowsInTurn()
        case .boardGoesAway: await Play.boardGoesAway()
        case .boardGoesAwayWhileShowing: await Play.boardGoesAwayWhileShowing()
        case .secondTapReplacesFirst: await Play.secondTapReplacesFirst()
        }
    }

    /// What a crash in this scenario most likely means.
    var crashLesson: Lesson {
        switch self {
        case .boardShowsInTurn, .boardGoesAway, .boardGoesAwayWhileShowing: Bugs.boardCrashed
        default: Bugs.crashed
        }
    }

    /// Runs this scenario in a child process; if the child traps, records `crash` with the
    /// runtime's last words.
    func runInChildProcess(sourceLocation: SourceLocation = #_sourceLocation) async {
        if await Self.sharedChild.ranShared(self, crash: crashLesson, sourceLocation: sourceLocation) { return }
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .success, crashLesson.comment, sourceLocation: sourceLocation) {
                [log = log as CrashLog, scenario = self as Scenario] in
                await log.runScenario {
                    await scenario.run()
                }
            }
        }
        log.explain(run, as: crashLesson, sourceLocation: sourceLocation)
    }

    /// In CI's repeated runs, one child process runs every scenario (see `SharedChild`).
    static let sharedChild = SharedChild<Scenario> { log, scenarios in
        await #expect(processExitsWith: .success, SharedChild<Scenario>.launchComment) {
            [log = log as CrashLog, scenarios = scenarios as [Scenario]] in
            await log.runScenarios(scenarios) { await $0.run() }
        }
    }
}

/// Presents `screen` with the callback API and waits for the transition to finish.
@MainActor
private func presentAndSettle(_ screen: Screen, on host: ScreenHost) async {
    host.present(screen)
    await awaitResult(of: { await host.transitionsFinished.reach(1) }, orRecord: Bugs.neverShows)
}

/// Gives the main actor plenty of turns, so that a wrapper that returns early (after a few
/// `Task.yield()`s, say) shows itself while a held animation is still running. Stops as
/// soon as `done` is true. A correct wrapper never returns while the animation is held, so
/// the verdict does not depend on the number of turns: it only has to be generous.
@MainActor
private func letTheMainActorRun(until done: () -> Bool) async {
    var turns = 0
    while !done() && turns < 200 {
        await Task.yield()
        turns += 1
    }
}

/// Waits until the host's log has `count` entries: the transition has started.
@MainActor
private func awaitTransitionStart(on host: ScreenHost, entries count: Int) async {
    await awaitResult(of: { await host.entries.reach(count) }, orRecord: Bugs.neverStartsTransition)
}

/// Records that the await returned too early, with both orders, if `log` is not `expected`.
private func expect(
    _ log: [String], is expected: [String], else lesson: Lesson = Bugs.returnsBeforeTransitionEnds,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard log != expected else { return }
    lesson.record(
        "  Expected: \(expected.joined(separator: " → "))\n  The log:  \(log.joined(separator: " → "))",
        sourceLocation: sourceLocation)
}

/// What each scenario does, on the main actor.
@MainActor
private enum Play {
    static func presentThenContinue() async {
        let host = ScreenHost()
        // The animation lasts until the test says so: only the completion knows when it ends.
        host.holdAnimations()
        let presenting = Task { @MainActor in
            try await host.presentAsync(Screen("Profile"))
            #expect(MainQueue.isCurrent, Bugs.leftTheMainActor.comment)
            host.note("after presentAsync")
        }
        await awaitTransitionStart(on: host, entries: 2)
        await letTheMainActorRun(until: { host.log.contains("after presentAsync") })
        host.releaseAnimations()
        _ = await awaitResult(of: { try await presenting.value }, orRecord: Bugs.neverResumes)
        expect(
            host.log,
            is: ["Profile.viewDidLoad", "Profile.viewWillAppear", "Profile.viewDidAppear", "after presentAsync"])
    }

    static func dismissThenContinue() async {
        let host = ScreenHost()
        await presentAndSettle(Screen("Settings"), on: host)
        host.holdAnimations()
        let dismissing = Task { @MainActor in
            try await host.dismissAsync()
            #expect(MainQueue.isCurrent, Bugs.leftTheMainActor.comment)
            host.note("after dismissAsync")
        }
        await awaitTransitionStart(on: host, entries: 4)
        await letTheMainActorRun(until: { host.log.contains("after dismissAsync") })
        host.releaseAnimations()
        _ = await awaitResult(of: { try await dismissing.value }, orRecord: Bugs.neverResumes)
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

    /// The task is cancelled while "Ad" is animating in: the transition finishes, and only then
    /// does the await return (normally, or with CancellationError: the caller's choice).
    static func cancelDuringPresent() async {
        let host = ScreenHost()
        host.holdAnimations()
        let presenting = Task { @MainActor in
            defer { host.note("after presentAsync") }
            try await host.presentAsync(Screen("Ad"))
        }
        await awaitTransitionStart(on: host, entries: 2)
        presenting.cancel()  // half-way through the animation
        await letTheMainActorRun(until: { host.log.contains("after presentAsync") })
        host.releaseAnimations()
        let outcome = await awaitResult(of: { try await presenting.value }, orRecord: Bugs.neverResumes)
        expect(
            host.log, is: ["Ad.viewDidLoad", "Ad.viewWillAppear", "Ad.viewDidAppear", "after presentAsync"],
            else: Bugs.cancelledMidTransition)
        #expect(
            host.topScreen?.title == "Ad",
            Bugs.cancelledMidTransition.comment("The screens on the host: \(host.stack.map(\.title))"))
        expectCancellationAtMost(outcome)
    }

    /// The task is cancelled while "Home" is animating out.
    static func cancelDuringDismiss() async {
        let host = ScreenHost()
        await presentAndSettle(Screen("Home"), on: host)
        host.holdAnimations()
        let dismissing = Task { @MainActor in
            defer { host.note("after dismissAsync") }
            try await host.dismissAsync()
        }
        await awaitTransitionStart(on: host, entries: 4)
        dismissing.cancel()
        await letTheMainActorRun(until: { host.log.contains("after dismissAsync") })
        host.releaseAnimations()
        let outcome = await awaitResult(of: { try await dismissing.value }, orRecord: Bugs.neverResumes)
        expect(
            Array(host.log.dropFirst(3)),
            is: ["Home.viewWillDisappear", "Home.viewDidDisappear", "after dismissAsync"],
            else: Bugs.cancelledMidTransition)
        #expect(
            host.topScreen == nil,
            Bugs.cancelledMidTransition.comment("The screens on the host: \(host.stack.map(\.title))"))
        expectCancellationAtMost(outcome)
    }

    /// A finished transition either returned or threw CancellationError; nothing else.
    private static func expectCancellationAtMost(
        _ outcome: Result<Void, any Error>?, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard case .failure(let error)? = outcome, !(error is CancellationError) else { return }
        Bugs.cancelledMidTransition.record("It threw \(error).", sourceLocation: sourceLocation)
    }

    /// Two announcements arrive at once: the board shows "Welcome", notes it once it is on
    /// screen, and only then replaces it with "News".
    static func boardShowsInTurn() async {
        let host = ScreenHost()
        let (announcements, input) = AsyncStream.makeStream(of: String.self)
        let board = AnnouncementBoard(host: host, announcements: announcements)
        board.start()
        input.yield("Welcome")
        input.yield("News")
        let expected = [
            "Welcome.viewDidLoad", "Welcome.viewWillAppear", "Welcome.viewDidAppear", "showing Welcome",
            "Welcome.viewWillDisappear", "Welcome.viewDidDisappear",
            "News.viewDidLoad", "News.viewWillAppear", "News.viewDidAppear", "showing News",
        ]
        await awaitResult(of: { await host.entries.reach(expected.count) }, orRecord: Bugs.neverShows)
        expect(host.log, is: expected)
        #expect(
            host.stack.map(\.title) == ["News"],
            Bugs.returnsBeforeTransitionEnds.comment("The screens on the host: \(host.stack.map(\.title))"))
        withExtendedLifetime(board) {}
    }

    static func boardGoesAway() async {
        var board: AnnouncementBoard?
        let (host, task, input) = startBoard(into: &board, sending: ["Welcome"])
        defer { input.finish() }  // the stream stays open until the end: only a cancel ends the task
        // Its lifecycle (three entries) and the board's note: the board is waiting for the next one.
        await awaitResult(of: { await host.entries.reach(4) }, orRecord: Bugs.neverShows)

        weak let released = board
        board = nil
        #expect(released == nil, Bugs.ownerNeverReleased.comment)
        #expect(task?.isCancelled == true, Bugs.taskOutlivesOwner.comment)
        await awaitResult(of: { await task?.value }, orRecord: Bugs.taskOutlivesOwner)
    }

    /// The app lets go of the board while "Welcome" is still animating in, with "News"
    /// already waiting in the stream.
    static func boardGoesAwayWhileShowing() async {
        let host = ScreenHost()
        let (announcements, input) = AsyncStream.makeStream(of: String.self)
        var board: AnnouncementBoard? = AnnouncementBoard(host: host, announcements: announcements)
        host.holdAnimations()
        board?.start()
        let task = board?.task
        input.yield("Welcome")
        input.yield("News")
        await awaitResult(of: { await host.entries.reach(2) }, orRecord: Bugs.neverShows)

        weak let released = board
        board = nil  // in the middle of the transition
        host.releaseAnimations()
        // The board may stay until "Welcome" is on screen; then it must go, and its task end.
        if case .stillSuspended = await withinHangLimit(hangLimit, { await task?.value }) {
            if released != nil {
                Bugs.ownerNeverReleased.record(
                    "The app let go of the board while \"Welcome\" was animating in; the board is still in memory.")
            } else {
                Bugs.taskOutlivesOwner.record(
                    "The board went away while \"Welcome\" was animating in; its task is still running.")
            }
            return
        }
        #expect(released == nil, Bugs.ownerNeverReleased.comment)
        #expect(task?.isCancelled == true, Bugs.taskOutlivesOwner.comment)
    }

    /// The user taps "Harbour", then "Lighthouse" before the first detail has started.
    static func secondTapReplacesFirst() async {
        let host = ScreenHost()
        let presenter = DetailPresenter(host: host)
        presenter.show("Harbour")
        let first = presenter.task
        presenter.show("Lighthouse")
        let second = presenter.task
        await awaitResult(of: { await first?.value }, orRecord: Bugs.neverResumes)
        await awaitResult(of: { await second?.value }, orRecord: Bugs.neverResumes)

        let harbour = host.log.filter { $0.hasPrefix("Harbour.") || $0 == "showing Harbour" }
        if !harbour.isEmpty {
            if first?.isCancelled == true {
                Bugs.cancelledTaskStillTransitions.record(
                    "DetailPresenter cancelled the task for \"Harbour\", yet presentAsync/dismissAsync still presented it: \(harbour)"
                )
            } else {
                Bugs.previousTaskRunsOn.record("After the tap on \"Lighthouse\", the log still shows: \(harbour)")
            }
        }
        #expect(
            host.stack.map(\.title) == ["Lighthouse"] && host.log.contains("showing Lighthouse"),
            Bugs.presenterWrong.comment("The screens: \(host.stack.map(\.title)); the log: \(host.log)"))
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
        "A task cancelled while the screen animates in or out: the transition finishes, then the await returns",
        .exposesBug(Bugs.cancelledMidTransition),
        arguments: [Scenario.cancelDuringPresent, .cancelDuringDismiss])
    func cancelDuringTransition(scenario: Scenario) async {
        await scenario.runInChildProcess()
    }

    @Test(
        "The board shows announcements in turn: each is on screen before it is noted and replaced",
        .exposesBug(Bugs.returnsBeforeTransitionEnds))
    func boardShowsInTurn() async {
        await Scenario.boardShowsInTurn.runInChildProcess()
    }

    @Test(
        "When the app lets go of the board, the board is released and its task cancelled",
        .exposesBug(Bugs.ownerNeverReleased, Bugs.taskOutlivesOwner))
    func boardAndTaskGoAway() async {
        await Scenario.boardGoesAway.runInChildProcess()
    }

    @Test(
        "When the app lets go of the board during a transition, the board goes once that announcement is shown",
        .exposesBug(Bugs.ownerNeverReleased))
    func boardGoesAwayWhileShowing() async {
        await Scenario.boardGoesAwayWhileShowing.runInChildProcess()
    }

    @Test(
        "A second tap replaces the first: the first detail's task is cancelled and never presents",
        .exposesBug(Bugs.previousTaskRunsOn))
    func secondTapReplacesFirst() async {
        await Scenario.secondTapReplacesFirst.runInChildProcess()
    }
}
