import SimulatedWorld

/// Fetches the thumbnail of every id, all requests at once, and saves each into `album`.
public func fillAlbum(_ album: ThumbnailAlbum, with ids: [String], from service: ThumbnailService) async throws {
    await withTaskGroup(of: Thumbnail?.self) { group in
        for id in ids {
            group.addTask { try? await service.fetchImage(id: id) }
        }
        for await thumbnail in group {
            if let thumbnail { await album.save(thumbnail) }
        }
    }
}
