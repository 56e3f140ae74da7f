import SimulatedWorld

/// Why an async login attempt ended without a token from the SDK.
public enum LoginAttemptError: Error, Hashable {
    /// A newer `login()` started while this one was still waiting for the user.
    case superseded
}

/// An async face for the callback-based ``SocialLoginSDK``.
///
/// Exercise: this works for one login where the user decides. Run
/// `swift run workbook check 02` (or `swift test --filter Ch02ContinuationMisuseTests`) to see
/// what happens when the user
/// comes back without deciding and taps "Log in" again. Read
/// Chapters/02-ContinuationMisuse/README.md first.
public final class LoginService: @unchecked Sendable {
    private let sdk: SocialLoginSDK
    private var pending: CheckedContinuation<LoginToken, any Error>?

    public init(sdk: SocialLoginSDK) {
        self.sdk = sdk
    }

    /// Logs in through the other app and returns its token.
    public func login() async throws -> LoginToken {
        try await withCheckedThrowingContinuation { continuation in
            pending = continuation
            sdk.login { [self] result in
                pending?.resume(with: result.mapError { $0 as any Error })
            }
        }
    }
}
