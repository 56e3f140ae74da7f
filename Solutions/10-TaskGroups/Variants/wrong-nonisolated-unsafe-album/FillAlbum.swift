import SimulatedWorld

/// Fetches the thumbnail of every id, all requests at once, and saves each into `album`.
public func fillAlbum(_ album: ThumbnailAlbum, with ids: [String], from service: ThumbnailService) async throws {
    // No box any more: just tell the compiler this one is fine.
    nonisolated(unsafe) let album = album
    try await withThrowingTaskGroup(of: Void.self) { group in
        for id in ids {
            group.addTask {
                let thumbnail = try await service.fetchImage(id: id)
                await album.save(thumbnail)
            }
        }
        try await group.waitForAll()
    }
}
