import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch19ClocksAndTimeoutsSolution
#else
    import Ch19ClocksAndTimeouts
#endif

private let reading = ChapterReading("19-ClocksAndTimeouts")

/// What can go wrong in this chapter, in the learner's words.
enum Bugs {
    static let realClock = reading.lesson(
        "sleeps on the real clock instead of the clock it was given",
        "code that takes a clock must do all its waiting on that clock: `Task`'s `sleep(for:)` always sleeps on the continuous clock, and so does a default `ContinuousClock()` or a `SuspendingClock()` written in; a test's manual clock then never sees the wait, and a test can only wait for real time",
        section: "Take the clock as a parameter")
    static let loserNotCancelled = reading.lesson(
        "withTimeout does not cancel the loser of the race",
        "a task group waits for every child before it returns, so once the first child has finished, `group.cancelAll()` must stop the other one; otherwise an operation that answered in time still waits for the whole time limit, and a timer in a `Task { }` goes on sleeping after the call",
        section: "Cancel the loser")
    static let timedOutNotStopped = reading.lesson(
        "the operation that ran out of time is not stopped",
        "when the time limit passes, the operation must be cancelled, and must end when it is: an operation in its own `Task { }` doesn't hear the group's cancel, and one that swallows the cancel goes on, and the group waits for it",
        section: "The loser must stop")
    static let errorBecomesTimeout = reading.lesson(
        "the operation's error comes out as a timeout",
        "a timeout is one outcome among others: when the operation fails before the limit, its own error must reach the caller; `try?` on the operation (or a catch-all that throws TimeoutError) reports a failure as a timeout, and hides what went wrong",
        section: "A timeout is not every error")
    static let timeoutNotThrown = reading.lesson(
        "the time limit passed without a TimeoutError",
        "when the time limit passes first, the caller must get TimeoutError: not a value, not the operation's CancellationError, and not silence",
        section: "A timeout is a race")
    static let cancelBecomesTimeout = reading.lesson(
        "a cancel comes out as a timeout",
        "the caller was cancelled long before the limit, and withTimeout threw TimeoutError: a timer that swallows the CancellationError of its sleep (`try? await clock.sleep(…)`) goes on to throw TimeoutError, though the limit never passed; `try await` lets the cancel end the timer",
        section: "A timeout is not every error")
    static let cancelNotPassedOn = reading.lesson(
        "cancelling the caller does not reach the request",
        "the operation and the timer must be child tasks of the caller, so that cancelling the caller cancels both; an unstructured `Task { }` doesn't hear it",
        section: "A timeout is a race")
    static let limitRestarts = reading.lesson(
        "the time limit restarts with every retry",
        "the search promises to give up 2 s after the call, retries included; a timeout around each attempt starts counting again at every retry, so the limit has to go around the retries, or every attempt must share one deadline",
        section: "One deadline for the whole search")
    static let retriesIgnoreCancel = reading.lesson(
        "the retries go on after a cancel",
        "a cancel must end the retries: `try? await clock.sleep(for:)` swallows the cancel of the wait, and a catch that retries every error retries the cancel too, so the server is asked again for nothing",
        section: "The loser must stop")
    static let retriesWrong = reading.lesson(
        "a busy server is not retried as promised",
        "after a busy answer, wait on the clock (0.5 s, then twice as long each time), then ask again, at most 3 times in all; an error that isn't worth retrying is thrown at once",
        section: "Retrying with backoff")
    static let noRequest = reading.lesson(
        "the request never reaches the server",
        "the operation must call the server once, at once",
        section: "A timeout is a race")
}

/// The instant `offset` after the manual clock's start.
func at(_ offset: Duration) -> ManualClock.Instant {
    ManualClock.Instant.start.advanced(by: offset)
}

/// The deadlines of the tasks asleep on `clock`, as offsets: `[2.0 seconds]`, or "nothing".
func describeSleepers(_ clock: ManualClock) -> String {
    let deadlines = clock.deadlines
    return deadlines.isEmpty ? "nothing" : "\(deadlines.map(\.offset))"
}

/// One call under test, in its own task, with a count that says when it has ended.
final class Call<Value: Sendable>: Sendable {
    let task: Task<Value, any Error>
    let ended = ObservedCount()

    init(_ operation: @escaping @Sendable () async throws -> Value) {
        let ended = ended
        task = Task {
            defer { ended.increment() }
            return try await operation()
        }
    }

    /// Whether the call has returned or thrown.
    var hasEnded: Bool { ended.value > 0 }

    /// Waits (bounded) for the call to end.
    func outcome() async -> BoundedOutcome<Value> {
        let task = task
        return await withinHangLimit { try await task.value }
    }

    /// The outcome if the call has already ended, without waiting for it.
    func outcomeIfEnded() async -> Result<Value, any Error>? {
        guard hasEnded else { return nil }
        if case .finished(let result) = await outcome() { return result }
        return nil
    }
}

/// How a call ended, in words: `returned ["a"]`, `threw TimeoutError(limit: 2.0 seconds)`.
func describe<Value>(_ result: Result<Value, any Error>) -> String {
    switch result {
    case .success(let value): "returned \(value)"
    case .failure(let error): "threw \(error)"
    }
}

/// A manual clock and a search server, fresh for each test.
struct Scene {
    let clock = ManualClock()
    let server = SearchServer()

    /// Waits (bounded) until `count` requests have reached the server. Records
    /// `Bugs.noRequest` and returns false if they never do.
    func requests(_ count: Int, in function: String) async -> Bool {
        let requests = server.requests
        if case .stillSuspended = await withinHangLimit(hangLimit, { await requests.reach(count) }) {
            Bugs.noRequest.record(
                "\(function) had made \(requests.value) request(s) to the server; the test waited for \(count).")
            return false
        }
        return true
    }

    /// Waits (bounded) until at least `count` tasks sleep on the manual clock. Records
    /// `Bugs.realClock` (naming `function` and `what`) and returns false if they never do.
    func sleepers(_ count: Int, in function: String, for what: String) async -> Bool {
        let clock = clock
        if case .stillSuspended = await withinHangLimit(hangLimit, { await clock.waitForSleepers(count) }) {
            Bugs.realClock.record(
                "\(function) was given a manual clock, but \(what) never slept on it"
                    + " (asleep on it: \(describeSleepers(clock))), so moving that clock can't end the wait.")
            return false
        }
        return true
    }
}
