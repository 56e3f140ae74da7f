import Dispatch

/// The token a successful social login hands back.
public struct LoginToken: Sendable, Hashable, Codable, CustomStringConvertible {
    public let value: String
    public init(_ value: String) { self.value = value }
    public var description: String { "LoginToken(\(value))" }
}

/// Why the social-login SDK reports a failed login.
public enum SocialLoginError: Error, Sendable, Hashable, Codable {
    /// The user said no in the other app.
    case userDenied
}

/// A simulated social-login SDK that hands off to another app, like real ones do.
///
/// `login(completion:)` stores the completion and "opens the other app". The tests then
/// play the user: ``userApproves(_:)``, ``userDenies()``, or ``userReturnsWithoutDeciding()``,
/// which leaves the completion pending, as real SDKs do when the user just switches back.
/// When a new login starts while one is pending, the SDK follows its
/// ``SupersededLoginPolicy``: it drops the old completion (never calls it) or keeps it and
/// may call it late (``deliverLateCallbacks(_:)``).
///
/// All completions run on a background queue.
public final class SocialLoginSDK: Sendable {
    /// What the SDK does with a pending completion when a new login starts.
    public enum SupersededLoginPolicy: Sendable {
        /// Release it without ever calling it.
        case drop
        /// Keep it; ``deliverLateCallbacks(_:)`` calls it later.
        case keepForLateDelivery
    }

    public typealias Completion = @Sendable (Result<LoginToken, SocialLoginError>) -> Void

    private struct State {
        var current: Completion?
        var superseded: [Completion] = []
        var dropped = 0
    }
    private let state = Locked(State())
    private let policy: SupersededLoginPolicy
    private let callbackQueue = DispatchQueue(label: "SocialLoginSDK.callbacks")

    /// How many times `login(completion:)` has been called.
    public let loginRequests = ObservedCount()
    /// How many completions the SDK has called.
    public let callbacksDelivered = ObservedCount()

    public init(whenSuperseded policy: SupersededLoginPolicy = .drop) {
        self.policy = policy
    }

    /// Starts a login in the other app. `completion` is called on a background queue
    /// when the user decides, maybe late, maybe never.
    public func login(completion: @escaping Completion) {
        state.withLock { state in
            if let pending = state.current {
                switch policy {
                case .drop: state.dropped += 1
                case .keepForLateDelivery: state.superseded.append(pending)
                }
            }
            state.current = completion
        }
        loginRequests.increment()
    }

    /// The user approves the most recent login.
    public func userApproves(_ token: LoginToken) { finishCurrent(with: .success(token)) }

    /// The user refuses the most recent login.
    public func userDenies() { finishCurrent(with: .failure(.userDenied)) }

    /// The user switches back to the app without deciding: the completion stays pending.
    public func userReturnsWithoutDeciding() {}

    /// Calls every superseded completion the SDK kept, late, with `result`.
    public func deliverLateCallbacks(_ result: Result<LoginToken, SocialLoginError>) {
        let late = state.withLock { state -> [Completion] in
            defer { state.superseded.removeAll() }
            return state.superseded
        }
        for completion in late { deliver(result, to: completion) }
    }

    /// Completions that are stored and could still be called: the current one and any kept late.
    public var pendingCallbackCount: Int {
        state.withLock { ($0.current == nil ? 0 : 1) + $0.superseded.count }
    }

    /// Completions the SDK released without calling.
    public var droppedCallbackCount: Int { state.withLock { $0.dropped } }

    private func finishCurrent(with result: Result<LoginToken, SocialLoginError>) {
        let completion = state.withLock { state -> Completion? in
            defer { state.current = nil }
            return state.current
        }
        guard let completion else { return }
        deliver(result, to: completion)
    }

    private func deliver(_ result: Result<LoginToken, SocialLoginError>, to completion: @escaping Completion) {
        ScheduledCallbacks.schedule(on: callbackQueue) {
            completion(result)
            self.callbacksDelivered.increment()
        }
    }
}
