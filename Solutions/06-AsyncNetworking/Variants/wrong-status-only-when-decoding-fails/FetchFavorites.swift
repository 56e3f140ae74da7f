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
    do {
        return try JSONDecoder().decode([PhotoSummary].self, from: data)
    } catch {
        throw PhotoAPIError.unexpectedStatus((response as? HTTPURLResponse)?.statusCode ?? 0)
    }
}
