/// Which call of a simulated service fails: the switch behind "every failure point".
///
/// A service that consults a plan asks ``nextCallFails(_:)`` once per call, in the order the
/// calls arrive. The plan counts the calls and answers `true` for exactly one of them, the
/// ``failingCall``-th (counted from 1), and `false` for every other, before and after. So a
/// test can fail the first call, then the second, and so on, and after each failure call
/// again to see whether the type recovers. A plan made with ``never`` fails nothing and only
/// counts, which is how a test learns how many calls a scenario makes.
///
/// Deterministic: the answer depends only on the order of the calls, never on timing.
public final class FailurePlan: Sendable {
    private struct State {
        var calls: [String] = []
        var failed: Int?
    }

    /// The call that fails, counted from 1; `nil` when no call fails.
    public let failingCall: Int?
    private let state = Locked(State())

    /// A plan that fails the `failingCall`-th call (counted from 1) and no other.
    public init(failingCall: Int?) {
        self.failingCall = failingCall
    }

    /// A plan that fails nothing and counts the calls.
    public static var never: FailurePlan { FailurePlan(failingCall: nil) }

    /// Counts one call, described by `label` (for example `image "b"`), and says whether it fails.
    public func nextCallFails(_ label: String) -> Bool {
        state.withLock { state in
            state.calls.append(label)
            guard state.calls.count == failingCall else { return false }
            state.failed = state.calls.count
            return true
        }
    }

    /// How many calls the plan has seen.
    public var callCount: Int { state.withLock { $0.calls.count } }

    /// The labels of the calls the plan has seen, in order.
    public var calls: [String] { state.withLock { $0.calls } }

    /// The label of the call that failed, once it has.
    public var failedCall: String? {
        state.withLock { state in state.failed.map { state.calls[$0 - 1] } }
    }
}
