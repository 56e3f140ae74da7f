import Foundation
import SimulatedWorld

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

public struct PhotoPage: Sendable, Hashable {
    public let photo: PhotoSummary
    public let comments: [String]

    public init(photo: PhotoSummary, comments: [String]) {
        self.photo = photo
        self.comments = comments
    }
}

public func loadPhotoPage(
    id: String, from baseURL: URL, using session: SimulatedURLSession
) async throws -> PhotoPage {
    let photoURL = baseURL.appendingPathComponent("photos/\(id)")
    let photo = try JSONDecoder().decode(PhotoSummary.self, from: try await fetchData(from: photoURL, using: session))
    let commentsURL = photoURL.appendingPathComponent("comments")
    let comments = try JSONDecoder().decode([String].self, from: try await fetchData(from: commentsURL, using: session))
    return PhotoPage(photo: photo, comments: comments)
}

func fetchData(from url: URL, using session: SimulatedURLSession) async throws -> Data {
    try await session.data(for: URLRequest(url: url)).0
}
