import Foundation
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

/// One login's continuation, resumed at most once. The flag is written under a lock.
private final class LoginAttempt: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<LoginToken, any Error>?
    private var earlyResult: Result<LoginToken, any Error>?
    private var finished = false

    /// Hands over the continuation; returns false (after resuming it) if the attempt already finished.
    func install(_ continuation: CheckedContinuation<LoginToken, any Error>) -> Bool {
        if let earlyResult {
            continuation.resume(with: earlyResult)
            return false
        }
        lock.lock()
        self.continuation = continuation
        lock.unlock()
        return true
    }

    /// Resumes the caller with `result` the first time; later calls find the flag set.
    func finish(_ result: Result<LoginToken, any Error>) {
        guard !finished else { return }
        lock.lock()
        finished = true
        lock.unlock()
        if let continuation {
            continuation.resume(with: result)
        } else {
            earlyResult = result
        }
    }
}
