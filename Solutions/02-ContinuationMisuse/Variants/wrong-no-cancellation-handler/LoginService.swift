import SimulatedWorld

/// Why an async login attempt ended without a token from the SDK.
public enum LoginAttemptError: Error, Hashable {
    /// A newer `login()` started while this one was still waiting for the user.
    case superseded
}

/// An async face for the callback-based ``SocialLoginSDK``.
public final class LoginService: Sendable {
    private let sdk: SocialLoginSDK
    private let current = Locked<LoginAttempt?>(nil)

    public init(sdk: SocialLoginSDK) {
        self.sdk = sdk
    }

    /// Logs in through the other app and returns its token.
    public func login() async throws -> LoginToken {
        let attempt = LoginAttempt()
        return try await withCheckedThrowingContinuation { continuation in
            guard attempt.install(continuation) else { return }
            let superseded = current.withLock { current in
                defer { current = attempt }
                return current
            }
            superseded?.finish(.failure(LoginAttemptError.superseded))
            sdk.login { [weak self] result in
                attempt.finish(result.mapError { $0 as any Error })
                self?.current.withLock { current in
                    if current === attempt { current = nil }
                }
            }
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

    /// Hands over the continuation; returns false (after resuming it) if the attempt already finished.
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
