import SimulatedWorld

/// Why an async login attempt ended without a token from the SDK.
public enum LoginAttemptError: Error, Hashable {
    /// A newer `login()` started while this one was still waiting for the user.
    case superseded
}

/// An async face for the callback-based ``SocialLoginSDK``.
public final class LoginService: @unchecked Sendable {
    private let sdk: SocialLoginSDK
    private var pending: UnsafeContinuation<LoginToken, any Error>?

    public init(sdk: SocialLoginSDK) {
        self.sdk = sdk
    }

    /// Logs in through the other app and returns its token.
    public func login() async throws -> LoginToken {
        // Unsafe: no more "SWIFT TASK CONTINUATION MISUSE" in the console.
        try await withUnsafeThrowingContinuation { continuation in
            pending = continuation
            sdk.login { [self] result in
                pending?.resume(with: result.mapError { $0 as any Error })
            }
        }
    }
}
