import SimulatedWorld

/// Fetches and resizes the thumbnail of every id, in order, until its task is cancelled;
/// then returns the thumbnails finished so far.
public func fetchThumbnailsUntilCancelled(
    for ids: [String], from service: ThumbnailService
) async throws -> [Thumbnail] {
    var finished: [Thumbnail] = []
    for id in ids where !Task.isCancelled {
        do {
            let image = try await service.fetchImage(id: id)
            finished.append(try resizeThumbnail(image, with: service))
        } catch {
            // Once the task is cancelled, no error matters to the caller any more.
            if Task.isCancelled { break }
            throw error
        }
    }
    return finished
}
