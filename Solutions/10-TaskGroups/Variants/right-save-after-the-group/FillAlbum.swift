import SimulatedWorld

/// Fetches the thumbnail of every id, all requests at once, and saves each into `album`.
public func fillAlbum(_ album: ThumbnailAlbum, with ids: [String], from service: ThumbnailService) async throws {
    let thumbnails = try await withThrowingTaskGroup(of: Thumbnail.self) { group in
        for id in ids {
            group.addTask { try await service.fetchImage(id: id) }
        }
        return try await group.reduce(into: [Thumbnail]()) { $0.append($1) }
    }
    for thumbnail in thumbnails {
        await album.save(thumbnail)
    }
}
