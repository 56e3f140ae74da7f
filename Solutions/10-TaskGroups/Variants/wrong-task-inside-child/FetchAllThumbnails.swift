import SimulatedWorld

/// Fetches the thumbnail of every id, all requests at once, and returns them by id.
public func fetchAllThumbnails(
    for ids: [String], from service: ThumbnailService
) async throws -> [String: Thumbnail] {
    try Task.checkCancellation()
    return try await withThrowingTaskGroup(of: (String, Thumbnail).self) { group in
        for id in ids {
            group.addTask {
                let request = Task { try await service.fetchImage(id: id) }
                return (id, try await request.value)
            }
        }
        var thumbnails: [String: Thumbnail] = [:]
        for try await (id, thumbnail) in group {
            thumbnails[id] = thumbnail
        }
        return thumbnails
    }
}
