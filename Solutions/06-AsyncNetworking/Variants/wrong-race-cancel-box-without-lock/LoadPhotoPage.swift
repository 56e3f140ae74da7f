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
    let transfer = CancellableTransfer()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: URLRequest(url: url)) { data, _, error in
                if let data {
                    continuation.resume(returning: data)
                } else {
                    continuation.resume(throwing: error ?? URLError(.badServerResponse))
                }
            }
            transfer.start(task)
        }
    } onCancel: {
        transfer.cancel()
    }
}

/// "It is only two fields": no lock. onCancel and the body can touch them at the same time.
private final class CancellableTransfer: @unchecked Sendable {
    private var task: SimulatedDataTask?
    private var isCancelled = false

    func start(_ task: SimulatedDataTask) {
        self.task = task
        if isCancelled { task.cancel() } else { task.resume() }
    }

    func cancel() {
        isCancelled = true
        task?.cancel()
    }
}
