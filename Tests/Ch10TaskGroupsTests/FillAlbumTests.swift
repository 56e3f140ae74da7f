import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch10TaskGroupsSolution
#else
    import Ch10TaskGroups
#endif

private let ids = ["a", "b", "c", "d"]

@Suite("Chapter 10: a task group fills a non-thread-safe album")
struct FillAlbumTests {
    @Test(
        "Every thumbnail lands in the album, and no two saves overlap",
        .exposesBug(Bugs.childrenShareTheAlbum, Bugs.thumbnailLost))
    func noOverlappingSaves() async {
        let service = ThumbnailService()
        let album = ThumbnailAlbum()
        do {
            try await fillAlbum(album, with: ids, from: service)
        } catch {
            Bugs.wrongThumbnails.record("fillAlbum threw \(error).")
        }
        #expect(album.overlappingSaves == 0, Bugs.childrenShareTheAlbum.comment)
        #expect(album.thumbnails == expectedThumbnails(ids), Bugs.thumbnailLost.comment)
    }

    @Test("Every request is in flight at the same time")
    func requestsRunTogether() async {
        let service = ThumbnailService(holdingRequests: true)
        let call = Task { try await fillAlbum(ThumbnailAlbum(), with: ids, from: service) }
        _ = await awaitInFlight(ids.count, on: service, orRecord: Bugs.notConcurrent)
        service.releaseAll()
        let result = await awaitResult(of: { try await call.value }, orRecord: Bugs.neverReturns)
        #expect(result?.value != nil, Bugs.wrongThumbnails.comment)
    }

    @Test("A failure is never dropped: fillAlbum throws it")
    func failureIsThrown() async {
        let service = ThumbnailService()
        service.fail(.image, for: "b")
        let result = await awaitResult(
            of: { try await fillAlbum(ThumbnailAlbum(), with: ids, from: service) }, orRecord: Bugs.neverReturns)
        guard let result else { return }
        guard case .failure(let error) = result,
            error as? ThumbnailServiceError == .injectedFailure(id: "b", request: .image)
        else {
            Bugs.errorDropped.record("fillAlbum: the request for \"b\" failed, and \(outcome(result)).")
            return
        }
    }
}
