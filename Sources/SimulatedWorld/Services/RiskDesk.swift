/// The error of a review that a test declined with ``RiskDesk/decline(_:)``.
public enum RiskDeskError: Error, Sendable, Hashable, CustomStringConvertible {
    case declined(memo: String)

    public var description: String {
        switch self {
        case .declined(let memo): "the risk desk declined the withdrawal \"\(memo)\""
        }
    }
}

/// A simulated fraud and risk check for chapter 14, driven by the tests: every withdrawal
/// is reviewed before the money leaves the account.
///
/// - **Held reviews.** A desk made with `holding: true` holds every review after it starts,
///   one gate per memo, until the test approves it (``approve(_:)``, ``approveAll()``) or
///   declines it (``decline(_:)``). A memo approved or declined before its review starts
///   passes at once. Nothing here depends on timing.
/// - **Counts.** ``started`` (with the memos in ``reviews``), ``inFlight`` (with its peak),
///   ``approved``, ``declined`` and ``cancelled``: a review whose task is cancelled while
///   it is held, or that starts in a task already cancelled, throws `CancellationError`.
public final class RiskDesk: Sendable {
    private enum Verdict: Sendable {
        case approve
        case decline
    }

    private struct State {
        var holding: Bool
        var gates: [String: Gate] = [:]
        var verdicts: [String: Verdict] = [:]
        var reviews: [String] = []
    }

    private let state: Locked<State>

    /// Reviews started, whatever became of them.
    public let started = ObservedCount()
    /// Reviews started and not yet ended. Its `peak` is the most at once.
    public let inFlight = ObservedCount()
    /// Reviews that approved their withdrawal.
    public let approved = ObservedCount()
    /// Reviews that declined their withdrawal.
    public let declined = ObservedCount()
    /// Reviews that saw their task's cancellation.
    public let cancelled = ObservedCount()

    /// A desk whose reviews wait after starting (`holding: true`) or approve at once.
    public init(holding: Bool = true) {
        state = Locked(State(holding: holding))
    }

    /// The memos of every review started, in order.
    public var reviews: [String] { state.withLock { $0.reviews } }

    /// Approves the held reviews of `memo`, and every later one at once.
    public func approve(_ memo: String) { decide(memo, .approve) }

    /// Declines the held reviews of `memo` with ``RiskDeskError/declined(memo:)``, and every
    /// later one.
    public func decline(_ memo: String) { decide(memo, .decline) }

    /// Approves every review, held now or started later, unless its memo was declined.
    public func approveAll() {
        let gates = state.withLock { state in
            state.holding = false
            return Array(state.gates.values)
        }
        for gate in gates { gate.open() }
    }

    /// Reviews a withdrawal of `amount` with memo `memo`. Returns if it is approved; throws
    /// ``RiskDeskError`` if it is declined, and `CancellationError` if the task is cancelled
    /// before or during the review.
    public func review(_ amount: Int, memo: String) async throws {
        let gate = state.withLock { state in
            state.reviews.append(memo)
            return Self.gate(for: memo, in: &state)
        }
        started.increment()
        inFlight.increment()
        defer { inFlight.decrement() }
        do {
            try await gate.pass()
        } catch {
            cancelled.increment()
            throw error
        }
        if state.withLock({ $0.verdicts[memo] }) == .decline {
            declined.increment()
            throw RiskDeskError.declined(memo: memo)
        }
        approved.increment()
    }

    private func decide(_ memo: String, _ verdict: Verdict) {
        let gate = state.withLock { state in
            state.verdicts[memo] = verdict
            return Self.gate(for: memo, in: &state)
        }
        gate.open()
    }

    private static func gate(for memo: String, in state: inout State) -> Gate {
        if let gate = state.gates[memo] { return gate }
        let gate = Gate(closed: state.holding)
        state.gates[memo] = gate
        return gate
    }
}
