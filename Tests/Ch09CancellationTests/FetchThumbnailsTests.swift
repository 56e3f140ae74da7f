import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch09CancellationSolution
#else
    import Ch09Cancellation
#endif

private let ids = ["a", "b", "c", "d"]

@Suite("Chapter 09: cancellation is cooperative")
struct FetchThumbnailsTests {
    @Test("Without a cancel, both styles fetch and resize every thumbnail, in order")
    func noCancel() async {
        let styles: [@Sendable ([String], ThumbnailService) async throws -> [Thumbnail]] = [
            { try await fetchThumbnails(for: $0, from: $1) },
            { try await fetchThumbnailsUntilCancelled(for: $0, from: $1) },
        ]
        for fetch in styles {
            let service = ThumbnailService()
            let result = await awaitResult(of: { try await fetch(ids, service) }, orRecord: Bugs.neverReturns)
            #expect(result?.value == ids.map(fullyResized), Bugs.wrongThumbnails.comment)
        }
    }

    @Test("Cancelled during a resize, the resize stops within one step", .exposesBug(Bugs.resizeIgnoresCancel))
    func resizeStops() async {
        let service = ThumbnailService()
        service.cancelResizingTask(atOverallStep: 3)
        let call = Task { try await fetchThumbnails(for: ["a"], from: service) }
        let result = await awaitResult(of: { try await call.value }, orRecord: Bugs.neverReturns)
        #expect(service.resizeSteps.value <= 4, Bugs.resizeIgnoresCancel.comment)
        #expect(throws: CancellationError.self, Bugs.resizeIgnoresCancel.comment) { try result?.get() }
    }

    @Test("After a cancel, no new request starts", .exposesBug(Bugs.requestAfterCancel))
    func noRequestAfterCancel() async {
        let service = ThumbnailService()
        // The cancel comes during the last step of the first resize: the resize itself is done.
        service.cancelResizingTask(atOverallStep: resizeStepCount)
        let call = Task { try await fetchThumbnails(for: ids, from: service) }
        let result = await awaitResult(of: { try await call.value }, orRecord: Bugs.neverReturns)
        #expect(service.started.value == 1, Bugs.requestAfterCancel.comment)
        #expect(throws: CancellationError.self, Bugs.cancelNotThrown.comment) { try result?.get() }
    }

    @Test("Cancelled while a request is in flight, fetchThumbnails throws CancellationError")
    func requestSeesTheCancel() async {
        let service = ThumbnailService(holdingRequests: true)
        defer { service.releaseAll() }
        let call = Task { try await fetchThumbnails(for: ids, from: service) }
        await awaitResult(of: { await service.inFlight.reach(1) }, orRecord: Bugs.neverReturns)
        call.cancel()
        let result = await awaitResult(of: { try await call.value }, orRecord: Bugs.neverReturns)
        #expect(throws: CancellationError.self, Bugs.cancelNotThrown.comment) { try result?.get() }
        #expect(service.started.value == 1, Bugs.requestAfterCancel.comment)
    }

    @Test(
        "Cancelled during a resize, the partial variant returns exactly the thumbnails it finished",
        .exposesBug(Bugs.partialNotReturned, Bugs.requestAfterCancel))
    func partialAfterResizeCancel() async {
        let service = ThumbnailService()
        service.cancelResizingTask(atOverallStep: 2 * resizeStepCount + 3)  // step 3 of "c"
        let call = Task { try await fetchThumbnailsUntilCancelled(for: ids, from: service) }
        let result = await awaitResult(of: { try await call.value }, orRecord: Bugs.neverReturns)
        #expect(result?.value == ["a", "b"].map(fullyResized), Bugs.partialNotReturned.comment)
        #expect(service.started.value == 3, Bugs.requestAfterCancel.comment)
    }

    @Test(
        "Cancelled while a request is in flight, the partial variant returns exactly the thumbnails it finished",
        .exposesBug(Bugs.partialNotReturned))
    func partialAfterRequestCancel() async {
        let service = ThumbnailService(holdingRequests: true)
        defer { service.releaseAll() }
        service.admit(.image, id: "a")
        service.admit(.image, id: "b")
        let call = Task { try await fetchThumbnailsUntilCancelled(for: ids, from: service) }
        await awaitResult(of: { await service.started.reach(3) }, orRecord: Bugs.neverReturns)
        call.cancel()
        let result = await awaitResult(of: { try await call.value }, orRecord: Bugs.neverReturns)
        #expect(result?.value == ["a", "b"].map(fullyResized), Bugs.partialNotReturned.comment)
        #expect(service.started.value == 3 && service.cancelled.value == 1, Bugs.requestAfterCancel.comment)
    }
}
