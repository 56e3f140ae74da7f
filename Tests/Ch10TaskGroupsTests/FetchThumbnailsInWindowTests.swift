import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch10TaskGroupsSolution
#else
    import Ch10TaskGroups
#endif

private let ids = ["a", "b", "c", "d", "e"]
private let window = 2

@Suite("Chapter 10: bounded concurrency with a sliding window")
struct FetchThumbnailsInWindowTests {
    @Test(
        "Exactly maxInFlight requests are in flight, and each finished one is replaced at once",
        .exposesBug(Bugs.windowNeverFull))
    func slidingWindow() async {
        let service = ThumbnailService(holdingRequests: true)
        defer { service.releaseAll() }
        let call = Task { try await fetchAllThumbnails(for: ids, from: service, maxInFlight: window) }
        guard await awaitInFlight(window, on: service, orRecord: Bugs.windowNeverFull) else { return }
        // Let the requests through one by one, oldest first. Each time one finishes, the
        // next id must start while the others are still held.
        for (index, id) in ids.enumerated() {
            service.admit(.image, id: id)
            let startedSoFar = min(index + 1 + window, ids.count)
            let replaced = await withinHangLimit(hangLimit, { await service.started.reach(startedSoFar) })
            guard case .finished = replaced else {
                Bugs.windowNotSliding.record(
                    "After the request for \"\(id)\" was let through, only \(service.started.value) requests had started, \(startedIds(service)), where \(startedSoFar) should have."
                )
                return
            }
        }
        let result = await awaitResult(of: { try await call.value }, orRecord: Bugs.neverReturns)
        #expect(result?.value == expectedThumbnails(ids), Bugs.wrongThumbnails.comment)
        #expect(service.inFlight.peak <= window, Bugs.windowTooWide.comment)
        #expect(service.inFlight.peak >= window, Bugs.windowNeverFull.comment)
        if service.startedRequests.map(\.id) != ids {
            Bugs.requestedOutOfOrder.record(
                "fetchAllThumbnails(for:from:maxInFlight:) started \(startedIds(service)) for the ids \(ids).")
        }
    }
}
