import SimulatedWorld

/// Fetches the thumbnail of every id, all requests at once, and saves each into `album`.
public func fillAlbum(_ album: ThumbnailAlbum, with ids: [String], from service: ThumbnailService) async throws {
    try await withThrowingTaskGroup(of: Thumbnail.self) { group in
        for id in ids {
            // The children share nothing: each one returns its thumbnail.
            group.addTask { try await service.fetchImage(id: id) }
        }
        // Only this task touches the album, one save at a time, as each child finishes.
        for try await thumbnail in group {
            await album.save(thumbnail)
        }
    }
}
