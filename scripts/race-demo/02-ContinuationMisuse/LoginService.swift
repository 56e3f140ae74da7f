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
                guard attempt.install(continuation) else { return }
                let superseded = current.withLock { current in
                    defer { current = attempt }
                    return current
                }
                superseded?.finish(.failure(LoginAttemptError.superseded))
                sdk.login { result in
                    attempt.finish(result.mapError { $0 as any Error })
                }
            }
        } onCancel: {
            attempt.finish(.failure(CancellationError()))
        }
    }
}

/// One login's continuation, resumed at most once: a flag remembers whether it was.
private final class LoginAttempt: @unchecked Sendable {
    private var continuation: CheckedContinuation<LoginToken, any Error>?
    private var earlyResult: Result<LoginToken, any Error>?
    private var finished = false

    /// Hands over the continuation; returns false (after resuming it) if the attempt already finished.
    func install(_ continuation: CheckedContinuation<LoginToken, any Error>) -> Bool {
        if let earlyResult {
            continuation.resume(with: earlyResult)
            return false
        }
        self.continuation = continuation
        return true
    }

    /// Resumes the caller with `result` the first time; later calls find the flag set.
    func finish(_ result: Result<LoginToken, any Error>) {
        if finished { return }
        finished = true
        if let continuation {
            continuation.resume(with: result)
        } else {
            earlyResult = result
        }
    }
}
