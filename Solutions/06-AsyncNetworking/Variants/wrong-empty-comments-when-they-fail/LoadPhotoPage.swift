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
public func loadPhotoPage(
    id: String, from baseURL: URL, using session: SimulatedURLSession
) async throws -> PhotoPage {
    let photoURL = baseURL.appendingPathComponent("photos/\(id)")
    let photo = try JSONDecoder().decode(PhotoSummary.self, from: try await fetchData(from: photoURL, using: session))
    let commentsURL = photoURL.appendingPathComponent("comments")
    // The page is still worth showing without its comments, unless the user left.
    let comments: [String]
    do {
        comments = try JSONDecoder().decode([String].self, from: try await fetchData(from: commentsURL, using: session))
    } catch let error as URLError where error.code == .cancelled {
        throw error
    } catch {
        comments = []
    }
    return PhotoPage(photo: photo, comments: comments)
}

/// The body at `url`, through the session's completion-handler data task.
///
/// Cancelling the Swift `Task` does not touch the data task by itself: the two are different
/// things. `withTaskCancellationHandler` connects them. A cancelled transfer calls back with
/// `URLError(.cancelled)`, so the continuation is still resumed exactly once, by the callback.
/// (`session.data(for:)` does all of this for you; this is how it does it.)
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

/// The data task of one transfer, cancelled even when the cancel comes before the task exists.
private final class CancellableTransfer: Sendable {
    private struct State {
        var task: SimulatedDataTask?
        var isCancelled = false
    }
    private let state = Locked(State())

    /// Resumes `task`, or cancels it at once if the transfer was already cancelled.
    func start(_ task: SimulatedDataTask) {
        let cancelled = state.withLock { state -> Bool in
            state.task = task
            return state.isCancelled
        }
        if cancelled { task.cancel() } else { task.resume() }
    }

    func cancel() {
        let task = state.withLock { state -> SimulatedDataTask? in
            state.isCancelled = true
            return state.task
        }
        task?.cancel()
    }
}
