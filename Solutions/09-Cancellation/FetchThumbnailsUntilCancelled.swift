import Foundation
import SimulatedWorld

/// Fetches and resizes the thumbnail of every id, in order, until its task is cancelled.
///
/// - Returns: **partial results** when the task is cancelled: the thumbnails finished
///   before the cancel, in order. A thumbnail whose request or resize was interrupted is
///   left out. A cancel is not an error here: it throws neither `CancellationError` nor
///   `URLError(.cancelled)`.
/// - Throws: the service's other errors: a failure is not a cancel.
///
/// Style 2: keep what you have. See "Two styles: throw, or return what you have" in the README.
public func fetchThumbnailsUntilCancelled(
    for ids: [String], from service: ThumbnailService
) async throws -> [Thumbnail] {
    var finished: [Thumbnail] = []
    for id in ids {
        // Check before starting anything new, the first request included.
        if Task.isCancelled { break }
        do {
            let image = try await service.fetchImage(id: id)
            finished.append(try resizeThumbnail(image, with: service))
        } catch let error where isCancellation(error) {
            // The request (URLError(.cancelled)) or the resize (CancellationError) saw the
            // cancel: this thumbnail is not finished. Any other error goes to the caller.
            break
        }
    }
    return finished
}

/// Whether `error` reports a cancel, in either of its two forms: `CancellationError`
/// (`Task.checkCancellation()`, `Task.sleep`) or `URLError(.cancelled)` (URL requests).
func isCancellation(_ error: any Error) -> Bool {
    error is CancellationError || (error as? URLError)?.code == .cancelled
}
