import SimulatedWorld

/// Lets the save tasks share the album.
final class SharedAlbum: @unchecked Sendable {
    let album: ThumbnailAlbum

    init(_ album: ThumbnailAlbum) {
        self.album = album
    }
}

/// Fetches the thumbnail of every id, all requests at once, and saves each into `album`.
public func fillAlbum(_ album: ThumbnailAlbum, with ids: [String], from service: ThumbnailService) async throws {
    let shared = SharedAlbum(album)
    var saves: [Task<Void, Never>] = []
    try await withThrowingTaskGroup(of: Thumbnail.self) { group in
        for id in ids {
            group.addTask { try await service.fetchImage(id: id) }
        }
        for try await thumbnail in group {
            // Don't hold up the loop: save in the background.
            saves.append(Task { await shared.album.save(thumbnail) })
        }
    }
    for save in saves { await save.value }
}
