import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch19ClocksAndTimeoutsSolution
#else
    import Ch19ClocksAndTimeouts
#endif

private let function = "withRetries(attempts:firstBackoff:clock:shouldRetry:operation:) in Retry.swift"

extension Scene {
    /// Calls `withRetries` (3 attempts, 0.5 s first backoff, busy answers retried) on the
    /// manual clock around one search request.
    func startRetriedSearch() -> Call<[String]> {
        let clock = clock
        let server = server
        return Call {
            try await withRetries(
                attempts: 3, firstBackoff: .milliseconds(500), clock: clock,
                shouldRetry: { $0 as? SearchServerError == .busy }
            ) {
                try await server.search("swift")
            }
        }
    }

    /// Waits (bounded) until a backoff is asleep on the clock until `deadline`. Records what
    /// went wrong and returns false if it never is: the wait ran on another clock, or for
    /// another time, or the retries ended.
    func backoff(until deadline: ManualClock.Instant, in function: String, after what: String) async -> Bool {
        let clock = clock
        guard case .stillSuspended = await withinHangLimit(hangLimit, { await clock.waitForSleeper(until: deadline) })
        else {
            return true
        }
        if !clock.deadlines.isEmpty {
            Bugs.retriesWrong.record(
                "After \(what), \(function) should wait until \(deadline.offset) on the clock;"
                    + " asleep on the clock: \(describeSleepers(clock)).")
        } else {
            Bugs.realClock.record(
                "After \(what), \(function) should wait on the manual clock it was given, until \(deadline.offset);"
                    + " nothing slept on that clock (requests so far: \(server.requests.value)),"
                    + " so the wait runs on another clock, or there is none.")
        }
        return false
    }

    /// Answers the first request "busy", starts a retried search, and waits (bounded) until
    /// its backoff is asleep on the clock until 0.5 s. Returns nil, with a lesson recorded
    /// and the call cancelled, if it never is.
    func retriedSearchWaitingToRetry() async -> Call<[String]>? {
        server.reply(.busy)
        let call = startRetriedSearch()
        guard await backoff(until: at(.milliseconds(500)), in: function, after: "the first busy answer") else {
            call.task.cancel()
            return nil
        }
        return call
    }

    /// After the first busy answer, with the backoff asleep until 0.5 s: moves the clock
    /// through both backoffs, answers "busy" twice more, and expects `call` to throw the third
    /// busy answer as it is: 3 attempts in all, and nothing left asleep on the clock.
    func expectThirdBusyAnswerThrown(by call: Call<[String]>, in function: String) async {
        clock.advance(to: at(.milliseconds(500)))
        guard await requests(2, in: function) else { return }
        server.reply(.busy)
        guard await backoff(until: at(.milliseconds(1500)), in: function, after: "the second busy answer")
        else { return }
        clock.advance(to: at(.milliseconds(1500)))
        guard await requests(3, in: function) else { return }
        server.reply(.busy)
        switch await call.outcome() {
        case .finished(.failure(let error as SearchServerError)) where error == .busy:
            break
        case .finished(let result):
            Bugs.retriesWrong.record(
                "The server answered \(SearchServerError.busy) 3 times, and \(function) \(describe(result))"
                    + " instead of throwing the third busy answer.")
        case .stillSuspended:
            Bugs.retriesWrong.record(
                "The server answered \(SearchServerError.busy) 3 times, the most it is asked, and \(function)"
                    + " was still running (asleep on the clock: \(describeSleepers(clock))): after the last"
                    + " attempt there is no wait, its error is thrown.")
        }
        if server.requests.value > 3 {
            Bugs.retriesWrong.record(
                "\(function) asked the server \(server.requests.value) times; 3 attempts in all is the most.")
        }
    }
}

@Suite("Chapter 19: withRetries, a backoff on the clock it was given")
struct RetryTests {
    @Test(
        "A busy server is asked again after 0.5 s, then 1 s, on the clock it was given",
        .exposesBug(Bugs.realClock))
    func busyIsRetriedAfterEachBackoff() async {
        let scene = Scene()
        scene.server.reply(.busy)  // the first request is answered "busy" at once
        let call = scene.startRetriedSearch()
        defer { call.task.cancel() }
        guard await scene.backoff(until: at(.milliseconds(500)), in: function, after: "the first busy answer")
        else { return }
        if scene.server.requests.value != 1 {
            Bugs.retriesWrong.record(
                "The first wait had not ended, and the server had already seen \(scene.server.requests.value) requests."
            )
        }
        scene.clock.advance(to: at(.milliseconds(500)))
        guard await scene.requests(2, in: function) else { return }
        scene.server.reply(.busy)
        guard await scene.backoff(until: at(.milliseconds(1500)), in: function, after: "the second busy answer")
        else { return }
        scene.clock.advance(to: at(.milliseconds(1500)))
        guard await scene.requests(3, in: function) else { return }
        scene.server.reply(.results(["swift.org"]))
        switch await call.outcome() {
        case .finished(.success(let results)):
            #expect(results == ["swift.org"], "withRetries returns what the successful attempt returned.")
        case .finished(let result):
            Bugs.retriesWrong.record("The third attempt returned [\"swift.org\"], and \(function) \(describe(result)).")
        case .stillSuspended:
            Bugs.retriesWrong.record("The third attempt returned [\"swift.org\"], and \(function) was still running.")
        }
        #expect(scene.server.requests.value == 3, "Three attempts in all: \(scene.server.requests.value) requests.")
    }

    @Test(
        "A server busy every time is asked 3 times in all, and the third busy answer is thrown",
        .exposesBug(Bugs.realClock))
    func thirdBusyAnswerIsThrown() async {
        let scene = Scene()
        guard let call = await scene.retriedSearchWaitingToRetry() else { return }
        defer { call.task.cancel() }
        await scene.expectThirdBusyAnswerThrown(by: call, in: function)
    }

    @Test("An error not worth retrying is thrown at once, without a wait")
    func otherErrorsAreThrownAtOnce() async {
        let scene = Scene()
        scene.server.reply(.badQuery)
        let call = scene.startRetriedSearch()
        defer { call.task.cancel() }
        switch await call.outcome() {
        case .finished(.failure(let error as SearchServerError)) where error == .badQuery:
            break
        case .finished(let result):
            Bugs.retriesWrong.record(
                "The server answered \(SearchServerError.badQuery), and \(function) \(describe(result)).")
        case .stillSuspended:
            Bugs.retriesWrong.record(
                "The server answered \(SearchServerError.badQuery), which no retry can fix, and \(function) was still"
                    + " running (\(scene.server.requests.value) request(s), asleep on the clock: \(describeSleepers(scene.clock)))."
            )
        }
        #expect(scene.server.requests.value == 1, Bugs.retriesWrong.comment)
    }

    @Test("A cancel during the wait ends the retries", .exposesBug(Bugs.realClock))
    func cancelDuringTheWaitEndsTheRetries() async {
        let scene = Scene()
        guard let call = await scene.retriedSearchWaitingToRetry() else { return }
        defer { call.task.cancel() }
        call.task.cancel()
        switch await call.outcome() {
        case .finished(.failure(let error)) where error is CancellationError:
            break
        case .finished(let result):
            Bugs.retriesIgnoreCancel.record(
                "\(function) was cancelled while it waited to retry, and \(describe(result)) instead of CancellationError."
            )
        case .stillSuspended:
            Bugs.retriesIgnoreCancel.record(
                "\(function) was cancelled while it waited to retry, and was still running"
                    + " (\(scene.server.requests.value) request(s), asleep on the clock: \(describeSleepers(scene.clock)))."
            )
            scene.server.reply(.results([]))
        }
        let requests = scene.server.requests.value
        if requests > 1 {
            Bugs.retriesIgnoreCancel.record(
                "After the cancel, \(function) asked the server again: \(requests) requests in all, for nothing.")
        }
    }
}
