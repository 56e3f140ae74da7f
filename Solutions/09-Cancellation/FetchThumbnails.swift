import SimulatedWorld

/// Fetches and resizes the thumbnail of every id, in the order of the ids.
///
/// When its task is cancelled it throws a cancellation error (`CancellationError` from its
/// own checks, or the `URLError(.cancelled)` of a request the cancel cut off) and starts no
/// further request or resize step. Style 1: all or nothing.
public func fetchThumbnails(for ids: [String], from service: ThumbnailService) async throws -> [Thumbnail] {
    var thumbnails: [Thumbnail] = []
    for id in ids {
        // Check before starting anything new: a request that never starts costs nothing.
        try Task.checkCancellation()
        let image = try await service.fetchImage(id: id)
        thumbnails.append(try resizeThumbnail(image, with: service))
    }
    return thumbnails
}
