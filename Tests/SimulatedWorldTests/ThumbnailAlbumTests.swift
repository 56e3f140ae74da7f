import SimulatedWorld
import Testing

@Suite("Simulated world: the non-thread-safe album")
struct ThumbnailAlbumTests {
    @Test("Saves from one task never overlap and never wait")
    func oneTask() async {
        let album = ThumbnailAlbum()
        for id in ["a", "b", "c"] { await album.save(.expected(for: id)) }
        #expect(album.saves == 3 && album.overlappingSaves == 0)
        #expect(Set(album.thumbnails.keys) == ["a", "b", "c"])
    }

    @Test("Saves from several tasks at once always overlap, and a thumbnail is lost")
    func severalTasks() async {
        let album = ThumbnailAlbum()
        let ids = ["a", "b", "c", "d"]
        // The children reach the album through an unchecked box: the race, on purpose.
        let shared = UncheckedAlbum(album)
        await withTaskGroup(of: Void.self) { group in
            for id in ids {
                group.addTask { await shared.album.save(.expected(for: id)) }
            }
        }
        #expect(album.overlappingSaves >= 1)
        #expect(album.thumbnails.count < ids.count)
    }
}

/// The escape hatch chapter 10 warns about, used here to prove the album catches it.
private final class UncheckedAlbum: @unchecked Sendable {
    let album: ThumbnailAlbum
    init(_ album: ThumbnailAlbum) { self.album = album }
}
