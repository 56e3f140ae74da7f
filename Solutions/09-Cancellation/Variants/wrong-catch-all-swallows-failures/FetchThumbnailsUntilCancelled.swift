import SimulatedWorld

/// Fetches and resizes the thumbnail of every id, in order, until its task is cancelled.
public func fetchThumbnailsUntilCancelled(
    for ids: [String], from service: ThumbnailService
) async throws -> [Thumbnail] {
    var finished: [Thumbnail] = []
    for id in ids {
        if Task.isCancelled { break }
        do {
            let image = try await service.fetchImage(id: id)
            finished.append(try resizeThumbnail(image, with: service))
        } catch {
            // Whatever went wrong, return what we have.
            break
        }
    }
    return finished
}
