import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch21StartingWorkSolution
#else
    import Ch21StartingWork
#endif

// Every check of "right after the tap" runs on the test's own turn of the main actor, right
// after the synchronous call returned: no task the tap started with `Task { }` can have run
// by then, because the test still holds the main actor. Nothing here depends on when the
// runtime gets round to a task.

@Suite("Chapter 21: a feed screen that starts its work at once")
@MainActor
struct FeedScreenTests {
    @Test(
        "Right after refreshTapped() returns, the spinner is on and the request is sent",
        .exposesBug(Bugs.spinnerLate, Bugs.requestLate))
    func loadingRightAfterTheTap() async {
        let screen = FeedScreen()
        let load = screen.refresh()
        guard screen.loadingAtOnce(request: 1, after: "refreshTapped()") else { return }
        screen.service.answer(1)
        guard await screen.awaitEnd(of: [load]) else { return }
        #expect(screen.model.posts == FeedService.posts(for: 1), Bugs.wrongOutcome.comment)
    }

    @Test("The request is sent by a task named \"Refresh feed\"", .exposesBug(Bugs.unnamedTask))
    func theTaskIsNamed() async {
        let screen = FeedScreen()
        let load = screen.refresh()
        screen.service.answer(1)
        guard await screen.awaitEnd(of: [load]) else { return }
        guard let request = screen.service.requests.first else {
            Bugs.wrongOutcome.record("A tap on Refresh never sent a request.")
            return
        }
        if request.taskName != "Refresh feed" {
            Bugs.unnamedTask.record("The service logged \(request).")
        }
    }

    @Test(
        "A double tap sends one request, and Cancel still cancels it",
        .exposesBug(Bugs.doubleTapTwoRequests, Bugs.cancelMissed))
    func doubleTapThenCancel() async {
        let screen = FeedScreen()
        // Two taps on Refresh and one on Cancel, in one turn of the main actor, as fast as a
        // user can; then the service would answer anything still waiting.
        let first = screen.refresh()
        let second = screen.refresh()
        screen.model.cancelTapped()
        screen.service.answer(1)
        screen.service.answer(2)
        guard await screen.awaitEnd(of: [first, second]) else { return }

        if screen.service.requests.count > 1 {
            Bugs.doubleTapTwoRequests.record(
                "Refresh, Refresh, Cancel: the service saw \(screen.service.requests.count) requests (\(screen.serviceLog))."
            )
        } else if screen.service.events.contains(.answered(1)) || !screen.model.posts.isEmpty {
            Bugs.cancelMissed.record(
                "Refresh, Refresh, Cancel: the service saw \(screen.serviceLog), and the screen shows \(screen.shows).")
        }
    }

    @Test(
        "Refresh then Cancel: the request was sent, is cancelled, and nothing is sent after the cancel",
        .exposesBug(Bugs.sentAfterCancel, Bugs.spinnerAfterCancel))
    func refreshThenCancel() async {
        let screen = FeedScreen()
        let load = screen.refresh()
        let sentBeforeCancel = screen.service.requests.count
        screen.model.cancelTapped()
        if screen.model.isLoading {
            Bugs.spinnerAfterCancel.record("Right after cancelTapped(), the screen shows: \(screen.shows).")
        }
        guard await screen.awaitEnd(of: [load]) else { return }

        let late = screen.service.requests.dropFirst(sentBeforeCancel)
        if !late.isEmpty {
            Bugs.sentAfterCancel.record(
                "Refresh, then Cancel: the service saw \(screen.serviceLog); sent after the cancel: "
                    + late.map(\.description).joined(separator: "; ") + ".")
            return
        }
        if screen.service.events != [.sent(1), .cancelled(1)] {
            Bugs.cancelMissed.record("Refresh, then Cancel: the service saw \(screen.serviceLog).")
        }
        if !screen.settled(showing: []) {
            let lesson = screen.model.errorMessage != nil ? Bugs.cancelShowsError : Bugs.wrongOutcome
            lesson.record("After Refresh and Cancel, once the load ended, the screen shows: \(screen.shows).")
        }
    }

    @Test(
        "Refresh, Cancel, Refresh: the first load's end leaves the second one's spinner on",
        .exposesBug(Bugs.spinnerLate, Bugs.requestLate))
    func cancelledLoadLeavesTheNewerOneAlone() async {
        let screen = FeedScreen()
        let first = screen.refresh()
        screen.model.cancelTapped()
        let second = screen.refresh()
        guard screen.loadingAtOnce(request: 2, after: "Refresh, Cancel, Refresh") else { return }

        // The first load now notices its cancel, while the second one is still waiting.
        guard await screen.awaitEnd(of: [first]) else { return }
        if !screen.model.isLoading {
            Bugs.staleReset.record(
                "Request #2 was still waiting, and the screen shows: \(screen.shows) (the service saw \(screen.serviceLog))."
            )
        }
        screen.service.answer(2)
        guard await screen.awaitEnd(of: [second]) else { return }
        if !screen.settled(showing: FeedService.posts(for: 2)) {
            Bugs.wrongOutcome.record("Request #2 delivered its posts, and the screen shows: \(screen.shows).")
        }
    }

    @Test(
        "An answer or a failure that arrives just before Cancel is not shown",
        .exposesBug(Bugs.spinnerLate, Bugs.requestLate))
    func resultJustBeforeCancel() async {
        let screen = FeedScreen()
        for (number, outcome) in [(1, "answered"), (2, "failed")] {
            let load = screen.refresh()
            guard screen.loadingAtOnce(request: number, after: "refreshTapped()") else { return }
            // In one turn of the main actor: the service's result arrives, and the user taps
            // Cancel before the load can get the main actor back.
            if number == 1 { screen.service.answer(number) } else { screen.service.fail(number) }
            screen.model.cancelTapped()
            guard await screen.awaitEnd(of: [load]) else { return }
            if !screen.settled(showing: []) {
                Bugs.cancelledLoadShows.record(
                    "Request #\(number) \(outcome) just before Cancel, and the screen shows: \(screen.shows).")
                return
            }
        }
    }

    @Test("A refresh that succeeds shows the posts and turns the spinner off")
    func refreshSucceeds() async {
        let screen = FeedScreen()
        let load = screen.refresh()
        screen.service.answer(1)
        guard await screen.awaitEnd(of: [load]) else { return }
        if !screen.settled(showing: FeedService.posts(for: 1)) {
            Bugs.wrongOutcome.record("Request #1 delivered its posts, and the screen shows: \(screen.shows).")
        }
    }

    @Test("A failed refresh shows an error and keeps the posts, and the next refresh tries again")
    func failureThenRetry() async {
        let screen = FeedScreen()
        screen.service.answer(1)
        screen.service.fail(2)
        screen.service.answer(3)
        let expected: [(what: String, posts: [String], error: Bool)] = [
            ("Request #1 delivered its posts", FeedService.posts(for: 1), false),
            ("Request #2 failed", FeedService.posts(for: 1), true),
            ("Request #3, the retry, delivered its posts", FeedService.posts(for: 3), false),
        ]
        for (number, step) in zip(1..., expected) {
            let load = screen.refresh()
            guard await screen.awaitEnd(of: [load]) else { return }
            guard screen.service.requests.count == number else {
                let lesson = screen.service.requests.count < number ? Bugs.refreshStuck : Bugs.wrongOutcome
                lesson.record(
                    "Refresh number \(number) should send request #\(number); the service saw \(screen.serviceLog).")
                return
            }
            if !screen.settled(showing: step.posts, error: step.error) {
                Bugs.wrongOutcome.record("\(step.what), and the screen shows: \(screen.shows).")
                return
            }
        }
    }

    @Test("Cancel with nothing loading, or after the load ended, changes nothing")
    func cancelWithNothingToCancel() async {
        let screen = FeedScreen()
        screen.model.cancelTapped()
        let load = screen.refresh()
        screen.service.answer(1)
        guard await screen.awaitEnd(of: [load]) else { return }
        screen.model.cancelTapped()
        if !screen.settled(showing: FeedService.posts(for: 1)) {
            Bugs.wrongOutcome.record(
                "Cancel before any refresh, then Refresh, its answer, and Cancel again: the screen shows \(screen.shows)."
            )
        }
        #expect(screen.service.events == [.sent(1), .answered(1)], "The service saw \(screen.serviceLog).")
    }
}
