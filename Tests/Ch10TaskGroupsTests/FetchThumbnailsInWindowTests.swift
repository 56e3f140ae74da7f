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
        // The children of one round of addTask may call the service in any order (they run
        // on a pool of threads), so the order is checked where the test knows how many have
        // started: the started ids must then be the front of the list, in some order.
        var takenOutOfOrder = startedAwayFromTheFront(service, expected: window)
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
            takenOutOfOrder = takenOutOfOrder ?? startedAwayFromTheFront(service, expected: startedSoFar)
        }
        let result = await awaitResult(of: { try await call.value }, orRecord: Bugs.neverReturns)
        #expect(result?.value == expectedThumbnails(ids), Bugs.wrongThumbnails.comment)
        #expect(service.inFlight.peak <= window, Bugs.windowTooWide.comment)
        #expect(service.inFlight.peak >= window, Bugs.windowNeverFull.comment)
        let started = service.startedRequests.map(\.id)
        if started.sorted() != ids.sorted() {
            Bugs.requestedOutOfOrder.record(
                "fetchAllThumbnails(for:from:maxInFlight:) started \(startedIds(service)) for the ids \(ids).")
        } else if let takenOutOfOrder {
            Bugs.requestedOutOfOrder.record(takenOutOfOrder)
        }
    }
}

/// When exactly `expected` requests have started, a window that takes the ids in their order
/// has started the first `expected` of them. Says what went wrong, or nil when that holds (or
/// when a different count started, which the window checks report on their own).
private func startedAwayFromTheFront(_ service: ThumbnailService, expected: Int) -> String? {
    let started = service.startedRequests.map(\.id)
    let front = Array(ids.prefix(expected))
    guard started.count == expected, started.sorted() != front.sorted() else { return nil }
    return
        "When \(expected) requests had started, fetchAllThumbnails(for:from:maxInFlight:) had asked for \(startedIds(service)), where the first \(expected) ids, \(front), should have been taken first."
}
