/// Requests held at gates until the test decides, one gate per key: the machinery of
/// ``ImageHost`` (downloads by image id) and ``RiskDesk`` (reviews by memo).
///
/// With `holding: true` every request waits after it starts, at the gate of its key, until the
/// test lets that key through with ``letThrough(_:failing:)`` (or every key with ``releaseAll()``).
/// Once a key is let through, its later requests pass at once. A request whose task is cancelled
/// while it is held, or that starts in a task already cancelled, throws `CancellationError` and
/// counts in ``cancelled``. Nothing here depends on timing.
public final class HeldRequests<Key: Hashable & Sendable>: Sendable {
    /// How a held request ended, once it passed its gate.
    public struct Passage: Sendable {
        /// The request's number: 1 for the first request, 2 for the second, and so on.
        public let number: Int
        /// Whether the test let its key through as a failure.
        public let failed: Bool
    }

    private struct State {
        var holding: Bool
        var gates: [Key: Gate] = [:]
        var failing: [Key: Bool] = [:]
        var requests: [Key] = []
        var startHandler: (@Sendable (Key) -> Void)?
        var failurePlan: FailurePlan?
    }

    private let state: Locked<State>

    /// Requests started, whatever became of them.
    public let started = ObservedCount()
    /// Requests started and not yet ended. Its `peak` is the most at once.
    public let inFlight = ObservedCount()
    /// Requests that saw their task's cancellation.
    public let cancelled = ObservedCount()

    /// Requests that wait after starting (`holding: true`) or pass at once.
    public init(holding: Bool) {
        state = Locked(State(holding: holding))
    }

    /// The key of every request started, in order.
    public var requests: [Key] { state.withLock { $0.requests } }

    /// Lets the held requests of `key` through, and every later one at once: as failures if
    /// `failing`, until a later call says otherwise.
    public func letThrough(_ key: Key, failing: Bool) {
        let gate = state.withLock { state in
            state.failing[key] = failing
            return Self.gate(for: key, in: &state)
        }
        gate.open()
    }

    /// Lets every request through, held now or started later; a key let through as a failure
    /// still fails.
    public func releaseAll() {
        let gates = state.withLock { state in
            state.holding = false
            return Array(state.gates.values)
        }
        for gate in gates { gate.open() }
    }

    /// Calls `handler` with the key of each request as it starts, before it is held or looks
    /// at cancellation: a test can count requests as steps, or cancel the task at an exact one.
    public func onStart(_ handler: @escaping @Sendable (Key) -> Void) {
        state.withLock { $0.startHandler = handler }
    }

    /// Lets `plan` decide which request fails too: every request that gets through its gate
    /// is one call of the plan (described by its key), and the one the plan fails ends as if
    /// its key had been let through as a failure.
    public func fail(per plan: FailurePlan) {
        state.withLock { $0.failurePlan = plan }
    }

    /// One request for `key`: held at the gate of `key` while it is closed, then ended by
    /// `end`, which still counts as in flight (so a test that sees ``inFlight`` drop also sees
    /// what `end` counted). Throws `CancellationError` if the task is cancelled before or
    /// while it is held, and what `end` throws.
    public func pass<Result>(_ key: Key, end: (Passage) throws -> Result) async throws -> Result {
        let (number, gate, onStart) = state.withLock { state in
            state.requests.append(key)
            return (state.requests.count, Self.gate(for: key, in: &state), state.startHandler)
        }
        started.increment()
        inFlight.increment()
        defer { inFlight.decrement() }
        onStart?(key)
        do {
            try await gate.pass()
        } catch {
            cancelled.increment()
            throw error
        }
        let (failing, plan) = state.withLock { ($0.failing[key] ?? false, $0.failurePlan) }
        let planned = plan?.nextCallFails("\(key)") ?? false
        return try end(Passage(number: number, failed: failing || planned))
    }

    private static func gate(for key: Key, in state: inout State) -> Gate {
        if let gate = state.gates[key] { return gate }
        let gate = Gate(closed: state.holding)
        state.gates[key] = gate
        return gate
    }
}
