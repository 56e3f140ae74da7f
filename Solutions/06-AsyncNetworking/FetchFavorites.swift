import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A photo as the photo service lists it: its id and title.
public struct PhotoSummary: Sendable, Hashable, Codable {
    public let id: String
    public let title: String

    public init(id: String, title: String) {
        self.id = id
        self.title = title
    }
}

/// What the photo service's client throws when the service answers, but not with success.
public enum PhotoAPIError: Error, Hashable {
    /// The status code was not 2xx.
    case unexpectedStatus(Int)
    /// The answer was not an HTTP response at all.
    case notHTTP
}

/// Fetches the user's favorite photos: `GET /favorites` answers a JSON array of photos.
public func fetchFavorites(from baseURL: URL, using session: URLSession) async throws -> [PhotoSummary] {
    let request = URLRequest(url: baseURL.appendingPathComponent("favorites"))
    let (data, response) = try await session.data(for: request)
    // data(for:) throws only when no answer arrived. A 404 or a 503 is an answer:
    // the body is an error page (or worse, something that decodes), not favorites.
    guard let status = (response as? HTTPURLResponse)?.statusCode else { throw PhotoAPIError.notHTTP }
    guard (200..<300).contains(status) else { throw PhotoAPIError.unexpectedStatus(status) }
    return try JSONDecoder().decode([PhotoSummary].self, from: data)
}
