import Foundation
import SimulatedWorld
import WorkbookTesting

#if Solutions
    import Ch09CancellationSolution
#else
    import Ch09Cancellation
#endif

/// The thumbnail of `id` as the service sends it, after every resize step.
func fullyResized(_ id: String) -> Thumbnail {
    let scratch = ThumbnailService()
    var image = Thumbnail.expected(for: id)
    for step in 1...resizeStepCount { image = scratch.resizeStep(image, step: step) }
    return image
}

/// Whether `error` reports a cancel: `CancellationError` (from `Task.checkCancellation()`
/// and friends) or `URLError(.cancelled)` (from a URL-session-style request).
func isCancellation(_ error: any Error) -> Bool {
    error is CancellationError || (error as? URLError)?.code == .cancelled
}

/// How a call ended, for a failure message: the ids it returned, or the error it threw.
func outcome(_ result: Result<[Thumbnail], any Error>) -> String {
    switch result {
    case .success(let thumbnails):
        let ids = thumbnails.map { thumbnail in
            thumbnail == fullyResized(thumbnail.id) ? "\"\(thumbnail.id)\"" : "\"\(thumbnail.id)\" (not fully resized)"
        }
        return "it returned [\(ids.joined(separator: ", "))]"
    case .failure(let error):
        return describeThrown(error)
    }
}

extension ThumbnailService {
    /// Cancels whichever task is resizing when the service's resize step number `step`
    /// (counted over all resizes, from 1) begins.
    func cancelResizingTask(atOverallStep step: Int) {
        let steps = resizeSteps
        onResizeStep { _ in
            if steps.value == step { withUnsafeCurrentTask { $0?.cancel() } }
        }
    }
}
