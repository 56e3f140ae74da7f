import SimulatedWorld

/// One run of a scenario whose n-th service call failed, and the run after it, on the same world.
public struct FailurePointRun<Value: Sendable>: Sendable {
    /// The call that was made to fail, counted from 1; `nil` for the baseline run.
    public let failingCall: Int?
    /// The calls of the first run, in order, as the services described them.
    public let calls: [String]
    /// The call that failed, if the run got that far.
    public let failedCall: String?
    /// How the first run ended; `nil` if it was still suspended after the hang limit.
    public let outcome: Result<Value, any Error>?
    /// How the same scenario ended when run again on the same world, no call failing;
    /// `nil` if it was still suspended. A type that recovers gives the baseline's result here.
    public let recovery: Result<Value, any Error>?
    /// The calls of the recovery run, in order. None where some were due means a stale
    /// result or error was replayed.
    public let recoveryCalls: [String]

    /// Whether this is the baseline run, where no call fails.
    public var isBaseline: Bool { failingCall == nil }
}

/// Every failure point: runs a scenario once with a ``FailurePlan`` that fails nothing, to
/// count its service calls; then, for each call n, builds a fresh world whose plan fails
/// exactly the n-th call, runs the scenario, and runs it again on the same world to see
/// whether the type recovers (no stale error replayed, no half-written state, nothing left
/// locked or reserved).
///
/// - Parameters:
///   - scenario: names the scenario in the reproducer.
///   - world: builds a fresh world whose services consult the plan, for example
///     `service.failRequests(per: plan)`.
///   - operation: the scenario's call, run in a task of its own, twice per world.
///   - calls: the failure points to run (counted from 1); `nil` runs one per call of the
///     baseline. A reproducer names its point, so a test can replay exactly that run.
///   - check: the contract, checked after every run, the baseline included.
/// - Returns: the report; nothing is recorded until the test calls
///   ``ExplorationReport/record(sourceLocation:)``.
public func exploreFailurePoints<World: Sendable, Value: Sendable>(
    _ scenario: String,
    world: (FailurePlan) -> World,
    operation: @escaping @Sendable (World) async throws -> Value,
    calls points: [Int]? = nil,
    check: (FailurePointRun<Value>, World) async -> [Violation]
) async -> ExplorationReport {
    let (baseline, baselineHung) = await HangTally.counting {
        await runFailurePoint(nil, world: world, operation: operation, check: check)
    }
    var findings = baseline.findings
    var runs = 1
    // After a run that hung and broke a promise, the runs after it are skipped (``HangTally``).
    var stopped = baselineHung && !baseline.findings.isEmpty
    let points = points ?? Array(stride(from: 1, through: baseline.calls.count, by: 1))
    for point in points where !stopped {
        let (run, hung) = await HangTally.counting {
            await runFailurePoint(point, world: world, operation: operation, check: check)
        }
        runs += 1
        findings += run.findings
        stopped = hung && !run.findings.isEmpty
    }
    return ExplorationReport(
        instrument: "every failure point", scenario: scenario, runs: runs,
        findings: findings.map { finding in
            ExplorationFinding(
                finding.violation,
                reproducer: finding.reproducer + "\n  Without a failure, the scenario's calls were:\n"
                    + numbered(baseline.calls))
        }, stoppedAfterHang: stopped)
}

private func runFailurePoint<World: Sendable, Value: Sendable>(
    _ failingCall: Int?,
    world makeWorld: (FailurePlan) -> World,
    operation: @escaping @Sendable (World) async throws -> Value,
    check: (FailurePointRun<Value>, World) async -> [Violation]
) async -> (calls: [String], findings: [ExplorationFinding]) {
    let plan = FailurePlan(failingCall: failingCall)
    let world = makeWorld(plan)
    let outcome = await runBounded(prepare: { _ in }, progress: { plan.callCount }) { try await operation(world) }
    let calls = plan.calls
    let recovery = await runBounded(prepare: { _ in }, progress: { plan.callCount }) {
        try await operation(world)
    }
    let recoveryCalls = Array(plan.calls.dropFirst(calls.count))
    let run = FailurePointRun(
        failingCall: failingCall, calls: calls, failedCall: plan.failedCall, outcome: outcome,
        recovery: recovery, recoveryCalls: recoveryCalls)
    let violations = await check(run, world)
    let point =
        failingCall.map { n in
            "Failure point \(n): call \(n) (\(plan.failedCall ?? "never reached: the run made fewer calls")) failed."
        } ?? "Run without a failure."
    let reproducer = """
        Reproducer: \(point)
          Calls of the first run:
        \(numbered(calls))
          Then \(describeOutcome(outcome)).
          Called again on the same world, with no failure:
        \(numbered(recoveryCalls))
          Then \(describeOutcome(recovery)).
        """
    return (calls, violations.map { ExplorationFinding($0, reproducer: reproducer) })
}
