import Foundation
import SimulatedWorld

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

public final class FavoritesClient: Sendable {
    private let baseURL: URL
    private let session: SimulatedURLSession
    private let prompt: SignInPrompt

    public init(server: SimulatedHTTPServer, signIn prompt: SignInPrompt) {
        baseURL = server.baseURL
        session = SimulatedURLSession(server: server, delegate: SignInForThisRequest(prompt: prompt))
        self.prompt = prompt
    }

    public func photo(id: String) async throws -> PhotoSummary {
        let request = URLRequest(url: baseURL.appendingPathComponent("photos/\(id)"))
        let (data, response) = try await session.data(for: request)
        try requireSuccess(response)
        return try JSONDecoder().decode(PhotoSummary.self, from: data)
    }

    public func favorite(photoID id: String) async throws {
        var request = URLRequest(url: baseURL.appendingPathComponent("photos/\(id)/favorite"))
        request.httpMethod = "POST"
        let (_, response) = try await session.data(for: request, delegate: SignInForThisRequest(prompt: prompt))
        try requireSuccess(response)
    }
}

final class SignInForThisRequest: SimulatedSessionDelegate {
    private let prompt: SignInPrompt

    init(prompt: SignInPrompt) {
        self.prompt = prompt
    }

    func session(
        _ session: SimulatedURLSession, didReceive challenge: AuthenticationChallenge
    ) async -> ChallengeDisposition {
        guard let credential = await prompt.requestCredential(for: challenge) else {
            return .cancelAuthenticationChallenge
        }
        return .useCredential(credential)
    }
}

private func requireSuccess(_ response: URLResponse) throws {
    guard let status = (response as? HTTPURLResponse)?.statusCode else { throw PhotoAPIError.notHTTP }
    guard (200..<300).contains(status) else { throw PhotoAPIError.unexpectedStatus(status) }
}
