import SimulatedWorld

/// Every order of `count` things, `0..<count`, in lexicographic order: `count!` of them.
/// Meant for small counts (up to 5 or so: 120 orders).
public func permutations(of count: Int) -> [[Int]] {
    guard count > 0 else { return [[]] }
    var result: [[Int]] = []
    func extend(_ prefix: [Int], _ rest: [Int]) {
        if rest.isEmpty { return result.append(prefix) }
        for (index, next) in rest.enumerated() {
            var remaining = rest
            remaining.remove(at: index)
            extend(prefix + [next], remaining)
        }
    }
    extend([], Array(0..<count))
    return result
}

/// Numbered steps that a scenario holds until the test releases them, one gate each.
///
/// The scenario's code (or a hook of the simulated world) calls ``hold(_:)`` at the point
/// that should be interleaved; the test awaits ``arrived`` reaching the number of held
/// steps, then releases them in the order it explores. A step whose task is cancelled
/// while it is held throws `CancellationError`, like ``Gate/pass()``.
public final class HeldSteps: Sendable {
    private let gates: [Gate]
    /// How many steps have reached their gate.
    public let arrived = ObservedCount()
    /// How many steps have been released and gone on.
    public let passed = ObservedCount()

    /// `count` held steps, numbered from 0.
    public init(count: Int) {
        gates = (0..<count).map { _ in Gate(closed: true) }
    }

    /// Holds step `index` until the test releases it.
    public func hold(_ index: Int) async throws {
        arrived.increment()
        try await gates[index].pass()
        passed.increment()
    }

    /// Releases step `index` (a step not held yet will pass at once when it arrives).
    public func release(_ index: Int) { gates[index].open() }

    /// Releases every step, for example to clean up after a failure.
    public func releaseAll() {
        for gate in gates { gate.open() }
    }
}

/// Interleavings: runs a scenario once for every order in which its `count` held steps can
/// be released, each time in a fresh world, and reports every order that broke the contract.
///
/// - Parameters:
///   - scenario: names the scenario in the reproducer.
///   - labels: names the held steps, for example `["load a (caller 1)", "load a (caller 2)"]`;
///     its count is the number of held steps.
///   - world: builds a fresh world for one order.
///   - start: starts the overlapping callers and returns once all the steps are held (await
///     ``HeldSteps/arrived``, within the hang limit).
///   - release: releases held step `index` and returns once its effect is done, for example
///     once that caller's call has returned or the next step has arrived. Awaiting the effect
///     is what makes the order real: releasing without it lets the steps run in any order.
///   - orders: the orders to run; `nil` runs all `count!`. A reproducer names its order, so a
///     test can replay exactly that run.
///   - check: the contract, checked after all the steps are released, given the order.
/// - Returns: the report; nothing is recorded until the test calls
///   ``ExplorationReport/record(sourceLocation:)``.
public func exploreInterleavings<World: Sendable>(
    _ scenario: String,
    labels: [String],
    world: () -> World,
    start: (World) async -> Void,
    release: (World, Int) async -> Void,
    orders: [[Int]]? = nil,
    check: (World, [Int]) async -> [Violation]
) async -> ExplorationReport {
    let orders = orders ?? permutations(of: labels.count)
    var findings: [ExplorationFinding] = []
    var runs = 0
    var stopped = false
    for order in orders where !stopped {
        let world = world()
        let (violations, hung) = await HangTally.counting {
            await start(world)
            for index in order { await release(world, index) }
            return await check(world, order)
        }
        runs += 1
        let reproducer =
            "Reproducer: the held steps were released in the order \(order):\n"
            + numbered(order.map { labels[$0] })
        findings += violations.map { ExplorationFinding($0, reproducer: reproducer) }
        // After an order that hung and broke a promise, the others are skipped (``HangTally``).
        stopped = hung && !violations.isEmpty
    }
    return ExplorationReport(
        instrument: "interleavings", scenario: scenario, runs: runs, findings: findings, stoppedAfterHang: stopped)
}
