import Foundation
import SimulatedWorld

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The photo app's client. Anyone may look at a photo; favoriting one needs the user to sign in.
///
/// Exercise: both calls work. Count how often the user sees the sign-in sheet, and see what
/// happens when they tap Cancel on it.
public final class FavoritesClient: Sendable {
    private let baseURL: URL
    private let session: SimulatedURLSession

    /// A client for `server` that asks `prompt` when it needs the user's credential.
    public init(server: SimulatedHTTPServer, signIn prompt: SignInPrompt) {
        baseURL = server.baseURL
        session = SimulatedURLSession(server: server, delegate: SignInWhenChallenged(prompt: prompt))
    }

    /// The summary of photo `id`, public: `GET /photos/<id>`.
    public func photo(id: String) async throws -> PhotoSummary {
        let request = URLRequest(url: baseURL.appendingPathComponent("photos/\(id)"))
        let (data, response) = try await session.data(for: request)
        try requireSuccess(response)
        return try JSONDecoder().decode(PhotoSummary.self, from: data)
    }

    /// Adds photo `id` to the user's favorites: `POST /photos/<id>/favorite`, which challenges
    /// for the user's credential.
    public func favorite(photoID id: String) async throws {
        var request = URLRequest(url: baseURL.appendingPathComponent("photos/\(id)/favorite"))
        request.httpMethod = "POST"
        let (_, response) = try await session.data(for: request)
        try requireSuccess(response)
    }
}

/// Answers the session's challenges with the credential the user types.
final class SignInWhenChallenged: SimulatedSessionDelegate {
    private let prompt: SignInPrompt

    init(prompt: SignInPrompt) {
        self.prompt = prompt
    }

    func session(
        _ session: SimulatedURLSession, didReceive challenge: AuthenticationChallenge
    ) async -> ChallengeDisposition {
        guard let credential = await prompt.requestCredential(for: challenge) else {
            return .performDefaultHandling
        }
        return .useCredential(credential)
    }
}

private func requireSuccess(_ response: URLResponse) throws {
    guard let status = (response as? HTTPURLResponse)?.statusCode else { throw PhotoAPIError.notHTTP }
    guard (200..<300).contains(status) else { throw PhotoAPIError.unexpectedStatus(status) }
}
