import SimulatedWorld

/// Lets the child tasks share the album. The compiler refused to let them capture the
/// album; `@unchecked Sendable` tells it "trust me", and it stops checking.
final class SharedAlbum: @unchecked Sendable {
    let album: ThumbnailAlbum

    init(_ album: ThumbnailAlbum) {
        self.album = album
    }
}

/// Fetches the thumbnail of every id, all requests at once, and saves each into `album`.
///
/// Exercise: this compiles, thanks to the box above, and every child saves into the album
/// itself. Run `swift run workbook check 10` (or `swift test --filter Ch10TaskGroupsTests`) and read
/// Chapters/10-TaskGroups/README.md.
public func fillAlbum(_ album: ThumbnailAlbum, with ids: [String], from service: ThumbnailService) async throws {
    let shared = SharedAlbum(album)
    try await withThrowingTaskGroup(of: Void.self) { group in
        for id in ids {
            group.addTask {
                let thumbnail = try await service.fetchImage(id: id)
                await shared.album.save(thumbnail)
            }
        }
        try await group.waitForAll()
    }
}
