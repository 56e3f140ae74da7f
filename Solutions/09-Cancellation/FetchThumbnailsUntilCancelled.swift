import SimulatedWorld

/// Fetches and resizes the thumbnail of every id, in order, until its task is cancelled.
///
/// - Returns: **partial results** when the task is cancelled: the thumbnails finished
///   before the cancel, in order. A thumbnail whose request or resize was interrupted is
///   left out. A cancel is not an error here: it never throws `CancellationError`.
/// - Throws: the service's own errors.
///
/// Style 2: keep what you have. See "Two styles: throw, or return what you have" in the README.
public func fetchThumbnailsUntilCancelled(
    for ids: [String], from service: ThumbnailService
) async throws -> [Thumbnail] {
    var finished: [Thumbnail] = []
    for id in ids {
        if Task.isCancelled { break }
        do {
            let image = try await service.fetchImage(id: id)
            finished.append(try resizeThumbnail(image, with: service))
        } catch is CancellationError {
            // The request or the resize saw the cancel: this thumbnail is not finished.
            break
        }
    }
    return finished
}
