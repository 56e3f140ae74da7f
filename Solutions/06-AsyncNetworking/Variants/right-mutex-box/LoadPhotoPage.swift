import Foundation
import SimulatedWorld
import Synchronization

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

/// The data task, or the news that the transfer was cancelled before it existed.
private final class CancellableTransfer: Sendable {
    private enum State {
        case waiting
        case started(SimulatedDataTask)
        case cancelled
    }
    private let state = Mutex(State.waiting)

    func start(_ task: SimulatedDataTask) {
        let cancelled = state.withLock { state -> Bool in
            if case .cancelled = state { return true }
            state = .started(task)
            return false
        }
        if cancelled { task.cancel() } else { task.resume() }
    }

    func cancel() {
        let task = state.withLock { state -> SimulatedDataTask? in
            defer { state = .cancelled }
            if case .started(let task) = state { return task }
            return nil
        }
        task?.cancel()
    }
}
