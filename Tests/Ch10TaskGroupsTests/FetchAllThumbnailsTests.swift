import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch10TaskGroupsSolution
#else
    import Ch10TaskGroups
#endif

private let ids = ["a", "b", "c", "d"]

@Suite("Chapter 10: errors and cancellation in a task group")
struct FetchAllThumbnailsTests {
    @Test("All requests run at once, every thumbnail comes back, and nothing is cancelled")
    func normalExit() async {
        let service = ThumbnailService(holdingRequests: true)
        let call = Task { try await fetchAllThumbnails(for: ids, from: service) }
        _ = await awaitInFlight(ids.count, on: service, orRecord: Bugs.notConcurrent)
        service.releaseAll()
        let result = await awaitResult(of: { try await call.value }, orRecord: Bugs.neverReturns)
        #expect(result?.value == expectedThumbnails(ids), Bugs.wrongThumbnails.comment)
        #expect(
            service.cancelled.value == 0 && service.finished.value == ids.count, Bugs.cancelledWithoutReason.comment)
    }

    @Test(
        "When one request fails, the others are cancelled and over before the error is thrown",
        .exposesBug(Bugs.siblingsNotCancelled))
    func failureCancelsSiblings() async {
        let service = ThumbnailService(holdingRequests: true)
        defer { service.releaseAll() }
        service.fail(.image, for: "b")
        let call = Task { try await fetchAllThumbnails(for: ids, from: service) }
        guard await awaitInFlight(ids.count, on: service, orRecord: Bugs.notConcurrent) else { return }
        service.admit(.image, id: "b")
        let result = await awaitResult(of: { try await call.value }, orRecord: Bugs.siblingsNotCancelled)
        let (inFlight, cancelled) = (service.inFlight.value, service.cancelled.value)
        if let result {
            #expect(
                throws: ThumbnailServiceError.injectedFailure(id: "b", request: .image), Bugs.wrongThumbnails.comment
            ) {
                try result.get()
            }
            #expect(inFlight == 0 && cancelled == ids.count - 1, Bugs.siblingsNotCancelled.comment)
        }
    }

    @Test("Cancelling the caller cancels every request", .exposesBug(Bugs.callerCancelNotPassedOn))
    func callerCancelReachesChildren() async {
        let service = ThumbnailService(holdingRequests: true)
        defer { service.releaseAll() }
        let call = Task { try await fetchAllThumbnails(for: ids, from: service) }
        guard await awaitInFlight(ids.count, on: service, orRecord: Bugs.notConcurrent) else { return }
        call.cancel()
        let result = await awaitResult(of: { try await call.value }, orRecord: Bugs.callerCancelNotPassedOn)
        if let result {
            #expect(throws: CancellationError.self, Bugs.callerCancelNotPassedOn.comment) { try result.get() }
        }
        #expect(service.cancelled.value == ids.count, Bugs.callerCancelNotPassedOn.comment)
    }
}
