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
    let pending = Locked<(task: SimulatedDataTask?, continuation: CheckedContinuation<Data, any Error>?)>((nil, nil))
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: URLRequest(url: url)) { data, _, error in
                if let data {
                    continuation.resume(returning: data)
                } else {
                    continuation.resume(throwing: error ?? URLError(.badServerResponse))
                }
            }
            pending.withLock { $0 = (task, continuation) }
            task.resume()
        }
    } onCancel: {
        let (task, continuation) = pending.withLock { $0 }
        task?.cancel()
        continuation?.resume(throwing: CancellationError())
    }
}
