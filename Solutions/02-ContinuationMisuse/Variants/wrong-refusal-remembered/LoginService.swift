import SimulatedWorld

/// Why an async login attempt ended without a token from the SDK.
public enum LoginAttemptError: Error, Hashable {
    /// A newer `login()` started while this one was still waiting for the user.
    case superseded
}

/// An async face for the callback-based ``SocialLoginSDK``.
///
/// Every call to ``login(isolation:)`` finishes exactly once:
/// - with the token or the SDK's error, when the user decides;
/// - with ``LoginAttemptError/superseded``, when a newer login starts first;
/// - with `CancellationError`, when the awaiting task is cancelled.
/// Callbacks that arrive after that (late, or twice) are ignored.
public final class LoginService: Sendable {
    private let sdk: SocialLoginSDK
    /// The attempt still waiting for the user, if any. Guarded by a lock, not by hope.
    /// (`Locked` is the workbook's `Mutex` look-alike; see "Resume once, ignore the rest".)
    private let current = Locked<LoginAttempt?>(nil)
    /// The user already said no: don't send them to the other app again to hear it twice.
    private let refused = Locked<(any Error)?>(nil)

    public init(sdk: SocialLoginSDK) {
        self.sdk = sdk
    }

    /// Logs in through the other app and returns its token.
    ///
    /// `isolation` makes the function run on the caller's actor (SE-0420): what the
    /// underscored `@_unsafeInheritExecutor` used to do unchecked, and which Swift 6 mode rejects.
    public func login(isolation: isolated (any Actor)? = #isolation) async throws -> LoginToken {
        if let refusal = refused.withLock({ $0 }) { throw refusal }
        let attempt = LoginAttempt()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation(isolation: isolation) { continuation in
                // Cancelled before it started (the task was cancelled before login() was
                // called): `onCancel` has already finished the attempt, and `install` resumes
                // it with CancellationError. Stop here: a cancelled login must not open the
                // other app, nor end the login that is still waiting for the user.
                guard attempt.install(continuation) else { return }
                // One attempt at a time: the one we replace gets a defined ending, not a leak.
                let superseded = current.withLock { current in
                    defer { current = attempt }
                    return current
                }
                superseded?.finish(.failure(LoginAttemptError.superseded))
                sdk.login { [weak self] result in
                    if case .failure(let error) = result { self?.refused.withLock { $0 = error } }
                    attempt.finish(result.mapError { $0 as any Error })
                    self?.current.withLock { current in
                        if current === attempt { current = nil }
                    }
                }
            }
        } onCancel: {
            attempt.finish(.failure(CancellationError()))
        }
    }
}

/// One login's continuation, resumed at most once: whoever finishes first takes it out.
private final class LoginAttempt: Sendable {
    private enum State {
        case waiting
        case suspended(CheckedContinuation<LoginToken, any Error>)
        case finishedEarly(Result<LoginToken, any Error>)
        case done
    }
    private let state = Locked<State>(.waiting)

    /// Hands over the continuation. If the attempt already finished (cancelled before it
    /// suspended), resumes it at once and returns false: there is nothing left to start.
    func install(_ continuation: CheckedContinuation<LoginToken, any Error>) -> Bool {
        let early: Result<LoginToken, any Error>? = state.withLock { state in
            guard case .finishedEarly(let result) = state else {
                state = .suspended(continuation)
                return nil
            }
            state = .done
            return result
        }
        guard let early else { return true }
        continuation.resume(with: early)
        return false
    }

    /// Resumes the caller with `result` if nobody has yet; otherwise does nothing.
    func finish(_ result: Result<LoginToken, any Error>) {
        let continuation: CheckedContinuation<LoginToken, any Error>? = state.withLock { state in
            switch state {
            case .waiting:
                state = .finishedEarly(result)
                return nil
            case .suspended(let continuation):
                state = .done
                return continuation
            case .finishedEarly, .done:
                return nil
            }
        }
        continuation?.resume(with: result)
    }
}
