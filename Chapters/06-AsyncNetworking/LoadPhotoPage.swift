import Foundation
import SimulatedWorld

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the photo screen shows: the photo, then its comments.
public struct PhotoPage: Sendable, Hashable {
    public let photo: PhotoSummary
    public let comments: [String]

    public init(photo: PhotoSummary, comments: [String]) {
        self.photo = photo
        self.comments = comments
    }
}

/// Loads photo `id` (`GET /photos/<id>`), then its comments (`GET /photos/<id>/comments`).
/// The screen runs this in a `Task` and cancels that task when the user leaves.
///
/// Exercise: the page loads. Now leave the screen while the photo is still downloading.
public func loadPhotoPage(
    id: String, from baseURL: URL, using session: SimulatedURLSession
) async throws -> PhotoPage {
    let photoURL = baseURL.appendingPathComponent("photos/\(id)")
    let photo = try JSONDecoder().decode(PhotoSummary.self, from: try await fetchData(from: photoURL, using: session))
    let commentsURL = photoURL.appendingPathComponent("comments")
    let comments = try JSONDecoder().decode([String].self, from: try await fetchData(from: commentsURL, using: session))
    return PhotoPage(photo: photo, comments: comments)
}

/// The body at `url`, through the session's completion-handler data task.
func fetchData(from url: URL, using session: SimulatedURLSession) async throws -> Data {
    try await withCheckedThrowingContinuation { continuation in
        let task = session.dataTask(with: URLRequest(url: url)) { data, _, error in
            if let data {
                continuation.resume(returning: data)
            } else {
                continuation.resume(throwing: error ?? URLError(.badServerResponse))
            }
        }
        task.resume()
    }
}
