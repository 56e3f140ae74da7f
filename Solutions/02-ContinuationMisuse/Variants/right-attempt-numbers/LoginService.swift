import SimulatedWorld

/// Why an async login attempt ended without a token from the SDK.
public enum LoginAttemptError: Error, Hashable {
    /// A newer `login()` started while this one was still waiting for the user.
    case superseded
}

/// An async face for the callback-based ``SocialLoginSDK``.
public final class LoginService: Sendable {
    private struct State {
        var nextNumber = 0
        var waiting: [Int: CheckedContinuation<LoginToken, any Error>] = [:]
        var current: Int?
    }
    private enum Start {
        case cancelled
        case started(superseding: CheckedContinuation<LoginToken, any Error>?)
    }
    private let sdk: SocialLoginSDK
    private let state = Locked(State())

    public init(sdk: SocialLoginSDK) {
        self.sdk = sdk
    }

    /// Logs in through the other app and returns its token.
    public func login() async throws -> LoginToken {
        let number = state.withLock { state in
            defer { state.nextNumber += 1 }
            return state.nextNumber
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Under one lock: either this task is already cancelled (then onCancel has run
                // or will find nothing), or the continuation is stored before onCancel can look.
                let start = state.withLock { state -> Start in
                    if Task.isCancelled { return .cancelled }
                    let superseded = state.current.flatMap { state.waiting.removeValue(forKey: $0) }
                    state.waiting[number] = continuation
                    state.current = number
                    return .started(superseding: superseded)
                }
                guard case .started(let superseded) = start else {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                superseded?.resume(throwing: LoginAttemptError.superseded)
                sdk.login { [weak self] result in
                    self?.finish(number, with: result.mapError { $0 as any Error })
                }
            }
        } onCancel: {
            finish(number, with: .failure(CancellationError()))
        }
    }

    /// Resumes attempt `number` if it is still waiting; otherwise does nothing.
    private func finish(_ number: Int, with result: Result<LoginToken, any Error>) {
        let continuation = state.withLock { state in
            if state.current == number { state.current = nil }
            return state.waiting.removeValue(forKey: number)
        }
        continuation?.resume(with: result)
    }
}
