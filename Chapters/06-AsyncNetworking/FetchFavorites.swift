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
///
/// This one uses the real `URLSession` (the tests answer through a `URLProtocol` stub).
/// Exercise: it works while the service is healthy. Run
/// `swift run workbook check 06` (or `swift test --filter Ch06AsyncNetworkingTests`) to see what
/// it does when the service is not.
/// Read Chapters/06-AsyncNetworking/README.md first.
public func fetchFavorites(from baseURL: URL, using session: URLSession) async throws -> [PhotoSummary] {
    let request = URLRequest(url: baseURL.appendingPathComponent("favorites"))
    let (data, _) = try await session.data(for: request)
    return try JSONDecoder().decode([PhotoSummary].self, from: data)
}
