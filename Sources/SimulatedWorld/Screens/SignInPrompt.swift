import Dispatch

/// A simulated sign-in sheet: the app shows it, the user types a name and password or taps Cancel.
///
/// Tests decide up front what the user will do. ``requestCredential(for:)`` suspends like a
/// real sheet and resumes on another queue with the user's answer. The prompt remembers
/// every challenge it was shown for, so a test can check when the user was bothered.
public final class SignInPrompt: Sendable {
    /// What the user does when the sheet appears.
    public enum UserAction: Sendable, Hashable {
        case signIn(Credential)
        case cancel
    }

    private let action: UserAction
    private let shownFor = Locked<[AuthenticationChallenge]>([])
    private let userQueue = DispatchQueue(label: "SignInPrompt.user")
    /// Counts the times the sheet was shown.
    public let timesShown = ObservedCount()

    public init(user action: UserAction) {
        self.action = action
    }

    /// Shows the sheet for `challenge` and waits for the user. Returns the credential the
    /// user typed, or nil if they tapped Cancel.
    public func requestCredential(for challenge: AuthenticationChallenge) async -> Credential? {
        shownFor.withLock { $0.append(challenge) }
        timesShown.increment()
        let action = action
        return await withCheckedContinuation { continuation in
            userQueue.async {
                switch action {
                case .signIn(let credential): continuation.resume(returning: credential)
                case .cancel: continuation.resume(returning: nil)
                }
            }
        }
    }

    /// The challenges the sheet was shown for, in order.
    public var challengesShown: [AuthenticationChallenge] { shownFor.withLock { $0 } }
}
