import SimulatedWorld

/// Why an async login attempt ended without a token from the SDK.
public enum LoginAttemptError: Error, Hashable {
    /// A newer `login()` started while this one was still waiting for the user.
    case superseded
}

/// An async face for the callback-based ``SocialLoginSDK``.
public final class LoginService: Sendable {
    private let sdk: SocialLoginSDK
    /// The continuation of the latest login, so that a retry can end it.
    private let pending = Locked<CheckedContinuation<LoginToken, any Error>?>(nil)

    public init(sdk: SocialLoginSDK) {
        self.sdk = sdk
    }

    /// Logs in through the other app and returns its token.
    public func login() async throws -> LoginToken {
        try await withCheckedThrowingContinuation { continuation in
            let previous = pending.withLock { pending in
                defer { pending = continuation }
                return pending
            }
            previous?.resume(throwing: LoginAttemptError.superseded)
            sdk.login { result in
                continuation.resume(with: result.mapError { $0 as any Error })
            }
        }
    }
}
