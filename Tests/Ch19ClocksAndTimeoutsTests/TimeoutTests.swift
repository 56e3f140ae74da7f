import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch19ClocksAndTimeoutsSolution
#else
    import Ch19ClocksAndTimeouts
#endif

private let function = "withTimeout(_:clock:operation:) in Timeout.swift"

extension Scene {
    /// Calls `withTimeout(2 s)` on the manual clock around one search request, and waits
    /// (bounded) until the request is at the server and the timer is asleep on the clock.
    /// Returns nil, with a lesson recorded, if either never happens.
    func startTimedSearch() async -> Call<[String]>? {
        let clock = clock
        let server = server
        let call = Call { try await withTimeout(.seconds(2), clock: clock) { try await server.search("swift") } }
        guard await requests(1, in: function), await sleepers(1, in: function, for: "its timer") else {
            call.task.cancel()
            return nil
        }
        return call
    }

    /// After the call has ended: nothing may still be asleep on the clock.
    func expectNoTimerLeft(after what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        if clock.sleeperCount > 0 {
            Bugs.loserNotCancelled.record(
                "\(function) had ended (\(what)), but its timer was still asleep on the clock until"
                    + " \(describeSleepers(clock)): it outlives the call.", sourceLocation: sourceLocation)
        }
    }
}

@Suite("Chapter 19: withTimeout, a race between the operation and a timer")
struct TimeoutTests {
    @Test(
        "An answer before the limit is returned at once, and the timer is cancelled",
        .exposesBug(Bugs.loserNotCancelled))
    func answerBeforeTheLimit() async {
        let scene = Scene()
        guard let call = await scene.startTimedSearch() else { return }
        scene.server.reply(.results(["swift.org"]))
        switch await call.outcome() {
        case .stillSuspended:
            Bugs.loserNotCancelled.record(
                "The operation returned [\"swift.org\"] and the clock never moved, yet \(function) was still waiting:"
                    + " for its timer, asleep on the clock until \(describeSleepers(scene.clock)).")
            call.task.cancel()
        case .finished(.success(let results)):
            #expect(results == ["swift.org"], "withTimeout must return what the operation returned.")
            scene.expectNoTimerLeft(after: "it returned \(results)")
        case .finished(let result):
            Bugs.errorBecomesTimeout.record(
                "The operation returned [\"swift.org\"] at once, and \(function) \(describe(result)).")
        }
    }

    @Test("When the limit passes first, withTimeout throws TimeoutError and cancels the operation")
    func limitPassesFirst() async {
        let scene = Scene()
        guard let call = await scene.startTimedSearch() else { return }
        scene.clock.advance(by: .seconds(2))
        switch await call.outcome() {
        case .stillSuspended:
            let cancelled = scene.server.cancelled.value
            Bugs.timedOutNotStopped.record(
                "The clock passed the 2 s limit, and \(function) was still waiting: "
                    + (cancelled == 0
                        ? "the request was never cancelled, and the group waits for it."
                        : "the request saw the cancel, yet something it started went on."))
            scene.server.reply(.results([]))
            call.task.cancel()
            return
        case .finished(.failure(let error as TimeoutError)):
            #expect(error == TimeoutError(limit: .seconds(2)), "The error names the limit that passed.")
        case .finished(let result):
            Bugs.timeoutNotThrown.record("The clock passed the 2 s limit, and \(function) \(describe(result)).")
        }
        let cancelled = scene.server.cancelled
        if case .stillSuspended = await withinHangLimit(hangLimit, { await cancelled.reach(1) }) {
            Bugs.timedOutNotStopped.record(
                "\(function) gave up after 2 s, but the request it gave up on was never cancelled:"
                    + " \(scene.server.waiting.value) request(s) still waiting at the server.")
            scene.server.reply(.results([]))
        }
        scene.expectNoTimerLeft(after: "the time limit passed")
    }

    @Test(
        "An error from the operation is thrown as it is, not as a timeout",
        .exposesBug(Bugs.errorBecomesTimeout))
    func errorIsThrownAsItIs() async {
        let scene = Scene()
        guard let call = await scene.startTimedSearch() else { return }
        scene.server.reply(.badQuery)
        switch await call.outcome() {
        case .finished(.failure(let error as SearchServerError)):
            #expect(error == .badQuery, "withTimeout must throw the operation's own error.")
            scene.expectNoTimerLeft(after: "it threw \(error)")
        case .finished(let result):
            Bugs.errorBecomesTimeout.record(
                "The operation threw \(SearchServerError.badQuery) before any time had passed on the clock,"
                    + " and \(function) \(describe(result)).")
        case .stillSuspended:
            Bugs.loserNotCancelled.record(
                "The operation threw \(SearchServerError.badQuery) and the clock never moved, yet \(function)"
                    + " was still waiting: for its timer, asleep until \(describeSleepers(scene.clock)).")
            call.task.cancel()
        }
    }

    @Test("Cancelling the caller cancels the operation and the timer")
    func callerCancelReachesBoth() async {
        let scene = Scene()
        guard let call = await scene.startTimedSearch() else { return }
        call.task.cancel()
        switch await call.outcome() {
        case .stillSuspended:
            Bugs.cancelNotPassedOn.record(
                "The caller's task was cancelled, and \(function) was still waiting"
                    + " (\(scene.server.cancelled.value) request(s) saw the cancel, asleep on the clock:"
                    + " \(describeSleepers(scene.clock))).")
            scene.server.reply(.results([]))
            scene.clock.advance(by: .seconds(2))
            return
        case .finished(.success(let results)):
            Bugs.cancelNotPassedOn.record(
                "The caller's task was cancelled, yet \(function) returned \(results) as if nothing had happened.")
        case .finished(.failure):
            break
        }
        if scene.server.cancelled.value == 0 {
            Bugs.cancelNotPassedOn.record(
                "\(function) ended after the caller's cancel, but the request never saw the cancel:"
                    + " it is still waiting at the server.")
            scene.server.reply(.results([]))
        }
        scene.expectNoTimerLeft(after: "the caller was cancelled")
    }

    /// The operation here hears the cancel only once the timer has left the clock, so a timer
    /// that turns its own cancel into TimeoutError wins the race to the group almost always.
    /// A few rounds make "almost" certain; a right withTimeout never throws TimeoutError here.
    /// The unfixed exercise's `try?` on the operation turns the operation's CancellationError
    /// into "no value", hence a timeout, whenever that child ends first: in some runs only.
    @Test("A cancelled caller gets no TimeoutError: the limit has not passed", .mayExposeBug(Bugs.cancelBecomesTimeout))
    func callerCancelIsNoTimeout() async {
        for _ in 1...12 {
            let scene = Scene()
            let clock = scene.clock
            let cancelHeard = ObservedCount()
            let call = Call {
                try await withTimeout(.seconds(2), clock: clock) { () async throws -> [String] in
                    await cancelHeard.reach(1)
                    throw CancellationError()
                }
            }
            defer { cancelHeard.increment() }
            guard await scene.sleepers(1, in: function, for: "its timer") else { return }
            call.task.cancel()
            if case .stillSuspended = await withinHangLimit(hangLimit, { await clock.wait(until: { $0.isEmpty }) }) {
                Bugs.cancelNotPassedOn.record(
                    "The caller's task was cancelled, and the timer of \(function) was still asleep on the clock"
                        + " until \(describeSleepers(clock)).")
                return
            }
            cancelHeard.increment()
            switch await call.outcome() {
            case .finished(.failure(let error as TimeoutError)):
                Bugs.cancelBecomesTimeout.record(
                    "The caller's task was cancelled before any time had passed on the clock, and \(function)"
                        + " threw \(error).")
                return
            case .finished:
                break
            case .stillSuspended:
                Bugs.cancelNotPassedOn.record(
                    "The caller's task was cancelled, the timer left the clock and the operation ended, and"
                        + " \(function) was still waiting.")
                return
            }
        }
    }
}
