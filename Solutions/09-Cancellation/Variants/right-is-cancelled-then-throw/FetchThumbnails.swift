import SimulatedWorld

/// Fetches and resizes the thumbnail of every id, in the order of the ids.
public func fetchThumbnails(for ids: [String], from service: ThumbnailService) async throws -> [Thumbnail] {
    var thumbnails: [Thumbnail] = []
    for id in ids {
        guard !Task.isCancelled else { throw CancellationError() }
        let image = try await service.fetchImage(id: id)
        thumbnails.append(try resizeThumbnail(image, with: service))
    }
    return thumbnails
}
