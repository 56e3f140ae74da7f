import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch19ClocksAndTimeoutsSolution
#else
    import Ch19ClocksAndTimeouts
#endif

private let function = "SearchClient.search(_:) in SearchClient.swift"

extension Scene {
    /// Starts a search with a client on the manual clock, and waits (bounded) until the
    /// first request is at the server and the search's time limit is asleep on the clock.
    /// Returns nil, with a lesson recorded, if either never happens.
    func startSearch() async -> Call<[String]>? {
        let client = SearchClient(server: server, clock: clock)
        let call = Call { try await client.search("swift") }
        guard await requests(1, in: function), await sleepers(1, in: function, for: "its time limit") else {
            call.task.cancel()
            return nil
        }
        return call
    }

    /// After the first busy answer: waits (bounded) until the search's backoff is asleep on
    /// the clock until 0.5 s. Records what went wrong and returns false if it never is.
    func firstBackoff(of call: Call<[String]>) async -> Bool {
        let clock = clock
        let backoff = at(.milliseconds(500))
        if case .stillSuspended = await withinHangLimit(hangLimit, { await clock.waitForSleeper(until: backoff) }) {
            if let result = await call.outcomeIfEnded() {
                if case .failure(let error) = result, error is TimeoutError {
                    Bugs.errorBecomesTimeout.record(
                        "The server answered \(SearchServerError.busy) at once, and \(function) threw \(error)"
                            + " before any time had passed, without a retry: withTimeout(_:clock:operation:)"
                            + " in Timeout.swift turned the server's error into a timeout.")
                } else {
                    Bugs.retriesWrong.record(
                        "The server answered \(SearchServerError.busy), and \(function) \(describe(result)) without a retry."
                    )
                }
            } else {
                Bugs.realClock.record(
                    "After the busy answer, \(function) should wait on its manual clock until 0.5 s before it asks again;"
                        + " nothing slept on that clock until then (asleep on it: \(describeSleepers(clock))),"
                        + " so the wait runs on another clock (see withRetries in Retry.swift).")
            }
            return false
        }
        return true
    }
}

@Suite("Chapter 19: the search client, its retries and its time limit")
struct SearchClientTests {
    @Test(
        "A search answered in time returns the results, and leaves nothing asleep on the clock",
        .exposesBug(Bugs.loserNotCancelled))
    func answeredInTime() async {
        let scene = Scene()
        guard let call = await scene.startSearch() else { return }
        scene.server.reply(.results(["swift.org", "swiftpackageindex.com"]))
        switch await call.outcome() {
        case .finished(.success(let results)):
            #expect(results == ["swift.org", "swiftpackageindex.com"], "The search returns the server's results.")
            if scene.clock.sleeperCount > 0 {
                Bugs.loserNotCancelled.record(
                    "\(function) returned, but a timer was still asleep on the clock until"
                        + " \(describeSleepers(scene.clock)): it outlives the search.")
            }
        case .finished(let result):
            Bugs.errorBecomesTimeout.record(
                "The server answered with results at once, and \(function) \(describe(result)).")
        case .stillSuspended:
            Bugs.loserNotCancelled.record(
                "The server answered with results and the clock never moved, yet \(function) was still waiting:"
                    + " for a timer asleep on the clock until \(describeSleepers(scene.clock)),"
                    + " which nobody cancelled (see withTimeout in Timeout.swift).")
            call.task.cancel()
        }
    }

    @Test("With no answer, the search gives up after 2 s and cancels its request")
    func givesUpAfterTheLimit() async {
        let scene = Scene()
        guard let call = await scene.startSearch() else { return }
        scene.clock.advance(to: at(.seconds(2)))
        switch await call.outcome() {
        case .finished(.failure(let error)) where error is TimeoutError:
            break
        case .finished(let result):
            Bugs.timeoutNotThrown.record("2 s passed with no answer, and \(function) \(describe(result)).")
        case .stillSuspended:
            Bugs.timeoutNotThrown.record(
                "2 s passed with no answer, and \(function) was still running"
                    + " (\(scene.server.requests.value) request(s), \(scene.server.cancelled.value) cancelled,"
                    + " asleep on the clock: \(describeSleepers(scene.clock))).")
            call.task.cancel()
            scene.server.reply(.results([]))
            return
        }
        if scene.server.cancelled.value != 1 || scene.server.requests.value != 1 {
            Bugs.timedOutNotStopped.record(
                "After the time limit, the request should have been cancelled and no other made:"
                    + " \(scene.server.requests.value) request(s), \(scene.server.cancelled.value) cancelled.")
        }
    }

    @Test(
        "The 2 s limit covers the retries too: a search retried after 0.5 s still gives up 2 s after the call",
        .exposesBug(Bugs.limitRestarts, Bugs.errorBecomesTimeout))
    func limitCoversTheRetries() async {
        let scene = Scene()
        guard let call = await scene.startSearch() else { return }
        defer { call.task.cancel() }
        scene.server.reply(.busy)
        guard await scene.firstBackoff(of: call) else { return }
        let clock = scene.clock
        let backoff = at(.milliseconds(500))
        clock.advance(to: backoff)
        guard await scene.requests(2, in: function),
            await scene.sleepers(1, in: function, for: "the time limit of the second attempt")
        else { return }
        clock.advance(to: at(.seconds(2)))
        switch await call.outcome() {
        case .finished(.failure(let error)) where error is TimeoutError:
            if scene.server.cancelled.value != 1 {
                Bugs.timedOutNotStopped.record(
                    "\(function) gave up after 2 s, but the second request was not cancelled"
                        + " (\(scene.server.cancelled.value) cancelled).")
            }
        case .finished(let result):
            Bugs.timeoutNotThrown.record(
                "2 s after the call (0.5 s of it waiting to retry), \(function) \(describe(result)).")
        case .stillSuspended:
            Bugs.limitRestarts.record(
                "2 s after the call (0.5 s of it waiting to retry), \(function) was still waiting for the second"
                    + " request: its time limit now ends at \(describeSleepers(clock)). It started again with the retry."
            )
            scene.server.reply(.results([]))
        }
    }

    @Test(
        "A server busy every time is asked 3 times in all, and its third busy answer is thrown",
        .exposesBug(Bugs.errorBecomesTimeout))
    func busyEveryTime() async {
        let scene = Scene()
        guard let call = await scene.startSearch() else { return }
        defer { call.task.cancel() }
        scene.server.reply(.busy)
        guard await scene.firstBackoff(of: call) else { return }
        await scene.expectThirdBusyAnswerThrown(by: call, in: function)
    }

    @Test(
        "An error the server gives is thrown as it is, not turned into a timeout",
        .exposesBug(Bugs.errorBecomesTimeout))
    func serverErrorIsThrownAsItIs() async {
        let scene = Scene()
        guard let call = await scene.startSearch() else { return }
        defer { call.task.cancel() }
        scene.server.reply(.badQuery)
        switch await call.outcome() {
        case .finished(.failure(let error as SearchServerError)) where error == .badQuery:
            #expect(scene.server.requests.value == 1, "A bad query is not retried.")
        case .finished(.failure(let error as TimeoutError)):
            Bugs.errorBecomesTimeout.record(
                "The server answered \(SearchServerError.badQuery) at once, and \(function) threw \(error):"
                    + " withTimeout(_:clock:operation:) in Timeout.swift turned the server's error into a timeout.")
        case .finished(let result):
            Bugs.retriesWrong.record(
                "The server answered \(SearchServerError.badQuery), and \(function) \(describe(result)).")
        case .stillSuspended:
            Bugs.retriesWrong.record(
                "The server answered \(SearchServerError.badQuery), and \(function) was still running"
                    + " (\(scene.server.requests.value) request(s), asleep on the clock: \(describeSleepers(scene.clock)))."
            )
        }
    }

    @Test("Cancelling a search cancels its request and its timer")
    func cancelReachesTheRequest() async {
        let scene = Scene()
        guard let call = await scene.startSearch() else { return }
        call.task.cancel()
        switch await call.outcome() {
        case .finished(.failure):
            break
        case .finished(.success(let results)):
            Bugs.cancelNotPassedOn.record("The search was cancelled, and \(function) returned \(results).")
        case .stillSuspended:
            Bugs.cancelNotPassedOn.record(
                "The search was cancelled, and \(function) was still running"
                    + " (\(scene.server.cancelled.value) request(s) cancelled, asleep on the clock:"
                    + " \(describeSleepers(scene.clock))).")
            scene.server.reply(.results([]))
            return
        }
        if scene.server.cancelled.value != 1 || scene.server.requests.value != 1 {
            Bugs.cancelNotPassedOn.record(
                "After the cancel, the one request should have been cancelled and no other made:"
                    + " \(scene.server.requests.value) request(s), \(scene.server.cancelled.value) cancelled.")
        }
        if scene.clock.sleeperCount > 0 {
            Bugs.loserNotCancelled.record(
                "\(function) ended after the cancel, but a timer was still asleep on the clock until"
                    + " \(describeSleepers(scene.clock)).")
        }
    }
}
