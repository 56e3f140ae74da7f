import SimulatedWorld
import Testing

/// How long a test waits for something that might hang before it gives up.
/// Only a failing test ever waits this long: a passing one is released the moment
/// the awaited work finishes.
public let hangLimit: Duration = .milliseconds(500)

/// What became of an operation that was awaited for a bounded time.
public enum BoundedOutcome<Value: Sendable>: Sendable {
    /// The operation returned or threw within the limit.
    case finished(Result<Value, any Error>)
    /// The limit passed and the operation was still suspended. It has been left behind.
    case stillSuspended
}

/// Awaits `operation` for at most `limit`.
///
/// The operation runs in its own unstructured task, so a hung operation (say, a
/// continuation that is never resumed) does not hang the test: after `limit` this returns
/// ``BoundedOutcome/stillSuspended`` and the task is left behind, not cancelled, because
/// cancelling could let a cancellation handler resume it and hide the hang.
/// A finished operation returns at once; the limit is paid only on the failure path.
///
/// Inside a ``CrashLog`` scenario the wait also ends early, with ``BoundedOutcome/stillSuspended``,
/// when the runtime reports that a continuation was destroyed without being resumed: a task
/// awaiting that continuation can never continue, so waiting out the limit would prove nothing.
/// With several waits pending, a report ends one only once it can't be another's (see
/// ``boundedWait(_:progress:endsOnLeak:timerPriority:_:)``).
///
/// For an operation of many steps (a stream of 40 values, say), pass `progress`: a count of the
/// steps done. While it moves, the operation is not hung, however slowly a busy machine runs
/// it, so the limit starts again, up to ``progressAllowance`` limits in all; the limit is then
/// the longest the operation may go without a step.
public func withinHangLimit<Value: Sendable>(
    _ limit: Duration = hangLimit,
    progress: (@Sendable () -> Int)? = nil,
    _ operation: @escaping @Sendable () async throws -> Value
) async -> BoundedOutcome<Value> {
    await boundedWait(limit, progress: progress, operation).outcome
}

/// How many limits in all a bounded wait with a `progress` count allows while the count moves.
public let progressAllowance = 20

/// ``withinHangLimit(_:progress:_:)``, and whether it ended early on a leaked continuation.
///
/// A report ends the wait only when it can't be another wait's: the reports since this wait
/// began must be at least as many as the waits still pending that began before the latest
/// report (``PendingLeakWaits``). Four downloads awaited at once, one of which drops its
/// continuation, end as they finish; the one that leaked ends early once it is the only one
/// left. With `endsOnLeak` false the wait doesn't end on reports at all: for a wait on
/// something other than the code's own continuation (a count the simulated world keeps, say),
/// while a continuation the code dropped, and nobody awaits, may still be reported.
///
/// The limit is counted by a task at `timerPriority` (the caller's, if nil); see
/// ``awaitResult(of:within:orRecord:endsOnLeak:timerPriority:sourceLocation:)``.
func boundedWait<Value: Sendable>(
    _ limit: Duration, progress: (@Sendable () -> Int)? = nil, endsOnLeak: Bool = true,
    timerPriority: TaskPriority? = nil,
    _ operation: @escaping @Sendable () async throws -> Value
) async -> (outcome: BoundedOutcome<Value>, leaked: Bool) {
    let first = FirstResumeWins<(outcome: BoundedOutcome<Value>, leaked: Bool)>()
    let leaksBefore = ContinuationLeaks.reported()
    let pending = endsOnLeak ? PendingLeakWaits.shared.begin(leaksBefore: leaksBefore) : nil
    let tally = HangTally.current
    let result = await withCheckedContinuation { continuation in
        first.arm(continuation)
        let timer = Task(priority: timerPriority) {
            let leaked = await sleepCountingRunnableTime(for: limit, progress: progress) {
                pending.map { PendingLeakWaits.shared.leakIsSurelyMine($0) } ?? false
            }
            if !Task.isCancelled {
                if let pending { PendingLeakWaits.shared.end(pending) }
                first.resume(with: (.stillSuspended, leaked))
            }
        }
        Task {
            let result: Result<Value, any Error>
            do { result = .success(try await operation()) } catch { result = .failure(error) }
            if let pending { PendingLeakWaits.shared.end(pending) }
            ProgressPulse.beat()
            timer.cancel()
            first.resume(with: (.finished(result), false))
        }
    }
    if case .stillSuspended = result.outcome { tally?.noteHang() }
    return result
}

/// Sleeps for `limit`, counting only time during which the process could run tasks.
///
/// The limit is slept in short ticks, one after the other. A tick that starts while no
/// thread is free ends only when one is, so a stall of the whole process costs one tick,
/// not the whole limit. Such stalls happen: in `swift test` on Linux, each running exit
/// test blocks a thread of the small cooperative pool while it reads its child's output,
/// and two of them block the whole pool of a two-core machine for as long as their child
/// processes run. The awaited operation could not run either, so that time must not count
/// as a hang.
///
/// Returns true, early, as soon as `endEarly` says so between two ticks. A tick is at most
/// 20 ms, so a long limit notices that as soon as a short one does. When `progress` moves
/// between two ticks, the limit starts again, up to `allowance` limits in all.
@discardableResult
func sleepCountingRunnableTime(
    for limit: Duration, progress: (@Sendable () -> Int)? = nil, allowance: Int = progressAllowance,
    endEarly: () -> Bool = { false }
) async -> Bool {
    let tick = min(limit / 25, .milliseconds(20))
    guard tick > .zero else { return false }
    var slept = Duration.zero
    var sleptInAll = Duration.zero
    var steps = progress?()
    while slept < limit, sleptInAll < limit * allowance {
        do { try await Task.sleep(for: tick) } catch { return false }
        slept += tick
        sleptInAll += tick
        if endEarly() { return true }
        if let progress, case let now = progress(), now != steps {
            steps = now
            slept = .zero
        }
    }
    return false
}

/// Awaits `operation` for at most `limit`; if it is still suspended then, records `lesson`
/// and returns nil. Otherwise returns how the operation finished.
///
/// Inside a ``CrashLog`` scenario the wait ends early when the runtime reports a leaked
/// continuation (see ``withinHangLimit(_:progress:_:)``). Pass `endsOnLeak: false` when
/// `operation` awaits no continuation of the code under test (a count the simulated world
/// keeps, say) and one the code dropped before may be reported during the wait: that report
/// says nothing about `operation`.
///
/// When `operation` waits for tasks started at a low priority, pass the lowest as
/// `timerPriority`. On Linux a task's priority is its thread's: Dispatch runs `.background`
/// work on threads with a nice value of 10, `.low` on 2. On a busy machine such a thread gets
/// a small share of the processor, and a limit counted at a higher priority runs out while the
/// awaited tasks were only waiting for their turn. Counted at their priority, the limit waits
/// with them.
@discardableResult
public func awaitResult<Value: Sendable>(
    of operation: @escaping @Sendable () async throws -> Value,
    within limit: Duration = hangLimit,
    orRecord lesson: Lesson,
    endsOnLeak: Bool = true,
    timerPriority: TaskPriority? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> Result<Value, any Error>? {
    switch await boundedWait(limit, endsOnLeak: endsOnLeak, timerPriority: timerPriority, operation) {
    case (.finished(let result), _):
        return result
    case (.stillSuspended, let leaked):
        lesson.record(
            leaked
                ? "Swift reported a continuation destroyed without being resumed, and the awaiting task was "
                    + "still suspended: nothing can resume it now."
                : "The awaiting task was still suspended after \(limit); nothing resumed it.",
            sourceLocation: sourceLocation)
        return nil
    }
}

/// Resumes a continuation with the first value offered and ignores the rest.
/// Internal plumbing of the bounded wait; the chapters write their own on purpose.
final class FirstResumeWins<Value: Sendable>: Sendable {
    private enum State {
        case waiting
        case armed(CheckedContinuation<Value, Never>)
        case early(Value)
        case done
    }
    private let state = Locked<State>(.waiting)

    func arm(_ continuation: CheckedContinuation<Value, Never>) {
        let early: Value? = state.withLock { state in
            switch state {
            case .waiting:
                state = .armed(continuation)
                return nil
            case .early(let value):
                state = .done
                return value
            case .armed, .done:
                preconditionFailure("armed twice")
            }
        }
        if let early { continuation.resume(returning: early) }
    }

    func resume(with value: Value) {
        let continuation: CheckedContinuation<Value, Never>? = state.withLock { state in
            switch state {
            case .waiting:
                state = .early(value)
                return nil
            case .armed(let continuation):
                state = .done
                return continuation
            case .early, .done:
                return nil
            }
        }
        continuation?.resume(returning: value)
    }
}

extension Result {
    /// The value, if this is a success. Handy inside `#expect`, which cannot always `try`.
    public var value: Success? {
        if case .success(let value) = self { return value }
        return nil
    }
}
