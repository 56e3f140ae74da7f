import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch10TaskGroupsSolution
#else
    import Ch10TaskGroups
#endif

@Suite("Chapter 10: first result wins")
struct FetchFirstThumbnailTests {
    @Test(
        "The first mirror to answer wins, and the others are cancelled before it returns",
        .exposesBug(Bugs.losersNotCancelled))
    func firstWins() async {
        let mirrors = ["m1", "m2", "m3"]
        let service = ThumbnailService(holdingRequests: true)
        defer { service.releaseAll() }
        let call = Task { try await fetchFirstThumbnail(amongMirrors: mirrors, from: service) }
        guard await awaitInFlight(mirrors.count, on: service, orRecord: Bugs.notConcurrent) else { return }
        service.admit(.image, id: "m2")
        let result = await awaitResult(of: { try await call.value }, orRecord: Bugs.losersNotCancelled)
        let (inFlight, cancelled) = (service.inFlight.value, service.cancelled.value)
        guard let result else { return }
        #expect(result.value == .expected(for: "m2"), Bugs.wrongThumbnails.comment)
        if inFlight != 0 || cancelled != 2 {
            Bugs.losersNotCancelled.record(
                "When fetchFirstThumbnail returned \"m2\", \(cancelled) of the 2 slower mirrors had seen a cancel and \(inFlight) requests were still in flight."
            )
        }
    }

    @Test("With no mirror to ask, it throws MirrorSearchError.noMirrors")
    func noMirrors() async {
        let service = ThumbnailService()
        let result = await awaitResult(
            of: { try await fetchFirstThumbnail(amongMirrors: [], from: service) }, orRecord: Bugs.neverReturns)
        #expect(throws: MirrorSearchError.noMirrors, Bugs.wrongThumbnails.comment) { try result?.get() }
    }
}
