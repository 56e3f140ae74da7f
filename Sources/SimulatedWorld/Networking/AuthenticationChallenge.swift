/// A user name and password, the simulated counterpart of `URLCredential`.
public struct Credential: Sendable, Hashable, Codable, CustomStringConvertible {
    public let user: String
    public let password: String

    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    public var description: String { "Credential(\(user))" }
}

/// A question the server asks before it answers, the counterpart of `URLAuthenticationChallenge`.
public struct AuthenticationChallenge: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What the server wants to know.
    public enum Method: String, Sendable, Hashable, Codable {
        /// "Do you trust me?" A real session evaluates it once per TLS connection, whatever
        /// the request, public or not, and asks the session-wide delegate first. The simulated
        /// session asks for every request, as if each opened a new connection.
        /// Default handling accepts the simulated server.
        case serverTrust
        /// "Who are you?" The route needs a ``Credential``, like HTTP Basic authentication.
        case signIn
    }

    public let method: Method
    /// The path of the request being challenged, for example `/photos/42/favorite`.
    public let path: String

    public init(method: Method, path: String) {
        self.method = method
        self.path = path
    }

    public var description: String { "\(method) challenge for \(path)" }
}

/// How a delegate answers a challenge: `URLSession.AuthChallengeDisposition` and its credential in one.
public enum ChallengeDisposition: Sendable, Hashable {
    /// Answer with this credential.
    case useCredential(Credential)
    /// Let the session decide: a server-trust challenge is accepted; a sign-in
    /// challenge goes unanswered and the server replies 401.
    case performDefaultHandling
    /// Give up: the request fails with `URLError(.cancelled)`.
    case cancelAuthenticationChallenge
}

/// Answers authentication challenges, like `URLSessionTaskDelegate.urlSession(_:task:didReceive:)`.
///
/// A ``SimulatedURLSession`` asks the delegate passed with a request first, then its own
/// session-wide delegate, except for server trust, a session-level challenge, which goes to
/// the session-wide delegate first; with neither, it performs default handling.
public protocol SimulatedSessionDelegate: AnyObject, Sendable {
    /// Decides how to answer `challenge`. May suspend, for example to ask the user.
    func session(
        _ session: SimulatedURLSession, didReceive challenge: AuthenticationChallenge
    ) async -> ChallengeDisposition
}
