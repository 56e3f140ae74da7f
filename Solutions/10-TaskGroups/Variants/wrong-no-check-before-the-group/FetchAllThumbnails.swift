import SimulatedWorld

/// Fetches the thumbnail of every id, all requests at once, and returns them by id.
public func fetchAllThumbnails(
    for ids: [String], from service: ThumbnailService
) async throws -> [String: Thumbnail] {
    // Cancellation flows from parent to children, so the group takes care of it.
    try await withThrowingTaskGroup(of: (String, Thumbnail).self) { group in
        for id in ids {
            group.addTask { (id, try await service.fetchImage(id: id)) }
        }
        var thumbnails: [String: Thumbnail] = [:]
        for try await (id, thumbnail) in group {
            thumbnails[id] = thumbnail
        }
        return thumbnails
    }
}
