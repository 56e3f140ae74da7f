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
    private let held: HeldRequests<String>

    /// Reviews started, whatever became of them.
    public var started: ObservedCount { held.started }
    /// Reviews started and not yet ended. Its `peak` is the most at once.
    public var inFlight: ObservedCount { held.inFlight }
    /// Reviews that approved their withdrawal.
    public let approved = ObservedCount()
    /// Reviews that declined their withdrawal.
    public let declined = ObservedCount()
    /// Reviews that saw their task's cancellation.
    public var cancelled: ObservedCount { held.cancelled }

    /// A desk whose reviews wait after starting (`holding: true`) or approve at once.
    public init(holding: Bool = true) {
        held = HeldRequests(holding: holding)
    }

    /// The memos of every review started, in order.
    public var reviews: [String] { held.requests }

    /// Approves the held reviews of `memo`, and every later one at once.
    public func approve(_ memo: String) { held.letThrough(memo, failing: false) }

    /// Declines the held reviews of `memo` with ``RiskDeskError/declined(memo:)``, and every
    /// later one.
    public func decline(_ memo: String) { held.letThrough(memo, failing: true) }

    /// Approves every review, held now or started later, unless its memo was declined.
    public func approveAll() { held.releaseAll() }

    /// Calls `handler` with the memo of each review as it starts, before it is held or looks
    /// at cancellation: a test can count reviews as steps, or cancel a task at an exact one.
    public func onReviewStart(_ handler: @escaping @Sendable (String) -> Void) { held.onStart(handler) }

    /// Lets `plan` decide which review is declined too, with ``RiskDeskError``: every review
    /// that gets through its gate is one call of the plan, described by its memo.
    public func declineReviews(per plan: FailurePlan) { held.fail(per: plan) }

    /// Reviews a withdrawal of `amount` with memo `memo`. Returns if it is approved; throws
    /// ``RiskDeskError`` if it is declined, and `CancellationError` if the task is cancelled
    /// before or during the review.
    public func review(_ amount: Int, memo: String) async throws {
        try await held.pass(memo) { passage in
            if passage.failed {
                declined.increment()
                throw RiskDeskError.declined(memo: memo)
            }
            approved.increment()
        }
    }
}
