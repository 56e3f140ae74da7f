import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

public struct PhotoSummary: Sendable, Hashable, Codable {
    public let id: String
    public let title: String

    public init(id: String, title: String) {
        self.id = id
        self.title = title
    }
}

public enum PhotoAPIError: Error, Hashable {
    case unexpectedStatus(Int)
    case notHTTP
}

public func fetchFavorites(from baseURL: URL, using session: URLSession) async throws -> [PhotoSummary] {
    let request = URLRequest(url: baseURL.appendingPathComponent("favorites"))
    let (data, response) = try await session.data(for: request)
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    // "Errors start at 400": a redirect is not an error.
    guard status < 400 else { throw PhotoAPIError.unexpectedStatus(status) }
    return try JSONDecoder().decode([PhotoSummary].self, from: data)
}
