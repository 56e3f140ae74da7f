import SimulatedWorld

/// Fetches the thumbnail of every id, all requests at once, and returns them by id.
public func fetchAllThumbnails(
    for ids: [String], from service: ThumbnailService
) async throws -> [String: Thumbnail] {
    try await withThrowingTaskGroup(of: (String, Thumbnail).self) { group in
        for id in ids {
            _ = group.addTaskUnlessCancelled { (id, try await service.fetchImage(id: id)) }
        }
        // In a cancelled group nothing was added: say so, rather than return nothing.
        try Task.checkCancellation()
        var thumbnails: [String: Thumbnail] = [:]
        while let (id, thumbnail) = try await group.next() {
            thumbnails[id] = thumbnail
        }
        return thumbnails
    }
}
