import Foundation
import SimulatedWorld

/// Counts a scenario's observable steps and, when told to, cancels the caller right after one.
///
/// The scenario's world reports each step with ``step(_:)``: a service call starting, a
/// resize step, a gate arrival, a callback. A hook of the simulated world is the usual place:
/// `service.onResizeStep { probe.step("resize step \($0)") }`. The probe runs inside the step,
/// so the cancel happens at exactly that point, never "some time later": no sleeping, no race.
public final class StepProbe: Sendable {
    private struct State {
        var steps: [String] = []
        var cancelAfter: Int?
        var cancelMade = false
        var afterCancel: [String] = []
        var cancelCaller: (@Sendable () -> Void)?
        /// While the cancel is being made: the thread making it.
        var cancellingThread: ObjectIdentifier?
        /// Called as a step starts to wait for the cancel being made (the instruments' tests).
        var onWaitForCancel: (@Sendable () -> Void)?
    }

    /// How long a step on another thread waits for a cancel being made to be done.
    static let cancelInProgressLimit: TimeInterval = 0.2

    private let state: Locked<State>
    /// Signalled when the cancel has been made, for the steps waiting for it.
    private let cancelEnded = NSCondition()

    /// A probe that cancels the caller right after step `cancelAfter` (counted from 1), or
    /// never when it is `nil`. With `0`, the caller is cancelled before its first step (the
    /// instrument cancels it), so every step counts as after the cancel.
    public init(cancelAfter: Int? = nil) {
        state = Locked(State(cancelAfter: cancelAfter, cancelMade: cancelAfter == 0))
    }

    /// Reports one observable step, described for the learner by `label`.
    ///
    /// A step that comes after the cancel point, on another thread while the cancel is still
    /// being made, waits until it is made (for at most ``cancelInProgressLimit``): a step
    /// counted as after the cancel then also sees the cancel, whatever thread it runs on.
    public func step(_ label: String) {
        let thread = ObjectIdentifier(Thread.current)
        let (cancel, cancelInProgress) = state.withLock { state -> ((@Sendable () -> Void)?, Bool) in
            if state.cancelMade { state.afterCancel.append(label) }
            state.steps.append(label)
            guard !state.cancelMade, state.steps.count == state.cancelAfter else {
                return (nil, state.cancellingThread.map { $0 != thread } ?? false)
            }
            state.cancelMade = true
            if state.cancelCaller != nil { state.cancellingThread = thread }
            return (state.cancelCaller, false)
        }
        if let cancel {
            cancel()
            cancelEnded.lock()
            state.withLock { $0.cancellingThread = nil }
            cancelEnded.broadcast()
            cancelEnded.unlock()
        } else if cancelInProgress {
            state.withLock { $0.onWaitForCancel }?()
            let deadline = Date(timeIntervalSinceNow: Self.cancelInProgressLimit)
            cancelEnded.lock()
            while state.withLock({ $0.cancellingThread != nil }), cancelEnded.wait(until: deadline) {}
            cancelEnded.unlock()
        }
    }

    /// Every step reported so far, in order.
    public var steps: [String] { state.withLock { $0.steps } }

    /// How many steps have been reported so far.
    var stepCount: Int { state.withLock { $0.steps.count } }

    /// The steps reported after the probe cancelled the caller.
    public var stepsAfterCancel: [String] { state.withLock { $0.afterCancel } }

    /// Whether the probe has cancelled the caller.
    public var cancelMade: Bool { state.withLock { $0.cancelMade } }

    /// Sets what "cancel the caller" does; the instrument sets it before the scenario starts.
    func whenCancelling(_ cancel: @escaping @Sendable () -> Void) {
        state.withLock { $0.cancelCaller = cancel }
    }

    /// Sets what happens as a step starts to wait for the cancel being made (for the
    /// instruments' own tests, which wait for that event instead of for time to pass).
    func whenAStepWaitsForTheCancel(_ action: @escaping @Sendable () -> Void) {
        state.withLock { $0.onWaitForCancel = action }
    }
}

/// One run of a scenario with a cancel planted at one point, as the test's check sees it.
public struct CancelPointRun<Value: Sendable>: Sendable {
    /// The step after which the caller was cancelled: 0 for a task cancelled before it made
    /// the call, `nil` for the baseline run without a cancel.
    public let cancelAfter: Int?
    /// Every step of this run, in order.
    public let steps: [String]
    /// The steps that happened after the cancel. Most contracts want none.
    public let stepsAfterCancel: [String]
    /// How the caller's call ended; `nil` if it was still suspended after the hang limit.
    public let outcome: Result<Value, any Error>?

    /// Whether this is the baseline run, without a cancel.
    public var isBaseline: Bool { cancelAfter == nil }
}

/// Every cancel point: runs a scenario once to count its steps, then once per step k,
/// cancelling the caller right after step k, and once cancelled before the call (k = 0).
///
/// - Parameters:
///   - scenario: names the scenario in the reproducer, for example "fetchThumbnails of a, b".
///   - world: builds a fresh world for one run and wires its hooks to the probe.
///   - operation: the caller's call, run in a task of its own; the probe cancels that task.
///   - points: the cancel points to run (`0` is before the call); `nil` runs all of them. A
///     reproducer names its point, so a test can replay exactly that run.
///   - check: the contract, checked after every run, the baseline included: returns the
///     promises the run broke. It can accept a set of outcomes where the contract leaves
///     the choice open, for example `CancellationError` or the result.
/// - Returns: the report; nothing is recorded until the test calls
///   ``ExplorationReport/record(sourceLocation:)``.
public func exploreCancelPoints<World: Sendable, Value: Sendable>(
    _ scenario: String,
    world: (StepProbe) -> World,
    operation: @escaping @Sendable (World) async throws -> Value,
    points: [Int]? = nil,
    check: (CancelPointRun<Value>, World) async -> [Violation]
) async -> ExplorationReport {
    var findings: [ExplorationFinding] = []
    var baselineSteps: [String] = []
    var runs = 0
    var stopped = false
    // One run; true when it hung and broke a promise, so the runs after it are skipped.
    func explore(_ cancelAfter: Int?) async -> Bool {
        let (run, hung) = await HangTally.counting {
            await runCancelPoint(cancelAfter, world: world, operation: operation, check: check)
        }
        runs += 1
        findings += run.findings
        if cancelAfter == nil { baselineSteps = run.steps }
        stopped = hung && !run.findings.isEmpty
        return stopped
    }
    for cancelAfter in [nil] + (points ?? []).map(Optional.some) {
        if await explore(cancelAfter) { break }
        // Without a list, explore before the call and after every step the baseline saw.
        if cancelAfter == nil, points == nil {
            for point in 0...baselineSteps.count {
                if await explore(point) { break }
            }
        }
        if stopped { break }
    }
    return ExplorationReport(
        instrument: "every cancel point", scenario: scenario, runs: runs,
        findings: findings.map { finding in
            ExplorationFinding(
                finding.violation,
                reproducer: finding.reproducer + "\n  Without a cancel, the scenario's steps were:\n"
                    + numbered(baselineSteps))
        }, stoppedAfterHang: stopped)
}

private func runCancelPoint<World: Sendable, Value: Sendable>(
    _ cancelAfter: Int?,
    world makeWorld: (StepProbe) -> World,
    operation: @escaping @Sendable (World) async throws -> Value,
    check: (CancelPointRun<Value>, World) async -> [Violation]
) async -> (steps: [String], findings: [ExplorationFinding]) {
    let probe = StepProbe(cancelAfter: cancelAfter)
    let world = makeWorld(probe)
    let outcome = await runBounded(
        prepare: { task in probe.whenCancelling { task.cancel() } }, progress: { probe.stepCount }
    ) {
        if cancelAfter == 0 { withUnsafeCurrentTask { $0?.cancel() } }
        return try await operation(world)
    }
    let run = CancelPointRun(
        cancelAfter: cancelAfter, steps: probe.steps, stepsAfterCancel: probe.stepsAfterCancel, outcome: outcome)
    let violations = await check(run, world)
    let point: String
    switch cancelAfter {
    case nil: point = "Run without a cancel."
    case 0: point = "Cancel point 0: the task was cancelled before it made the call."
    case let k?:
        let label = k <= run.steps.count ? " (\(run.steps[k - 1]))" : " (never reached: the run had fewer steps)"
        point = "Cancel point \(k): the caller was cancelled right after step \(k)\(label)."
    }
    let cancelled = cancelAfter.map { min($0, run.steps.count) } ?? run.steps.count
    let reproducer = """
        Reproducer: \(point)
          Steps up to the cancel:
        \(numbered(Array(run.steps.prefix(cancelled))))
          Steps after the cancel:
        \(numbered(run.stepsAfterCancel, from: cancelled + 1))
          Then \(describeOutcome(outcome)).
        """
    return (run.steps, violations.map { ExplorationFinding($0, reproducer: reproducer) })
}
