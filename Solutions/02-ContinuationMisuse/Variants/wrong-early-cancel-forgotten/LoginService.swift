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
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                attempt.install(continuation)
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
        } onCancel: {
            attempt.finish(.failure(CancellationError()))
        }
    }
}

/// One login's continuation, resumed at most once: whoever finishes first takes it out.
private final class LoginAttempt: Sendable {
    private let continuation = Locked<CheckedContinuation<LoginToken, any Error>?>(nil)

    func install(_ continuation: CheckedContinuation<LoginToken, any Error>) {
        self.continuation.withLock { $0 = continuation }
    }

    /// Resumes the caller with `result` if nobody has yet; otherwise does nothing.
    func finish(_ result: Result<LoginToken, any Error>) {
        let continuation = self.continuation.withLock { continuation in
            defer { continuation = nil }
            return continuation
        }
        continuation?.resume(with: result)
    }
}
