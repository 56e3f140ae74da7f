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
        if let result, result.value != expectedThumbnails(ids) {
            Bugs.wrongThumbnails.record("fetchAllThumbnails: \(outcome(result)).")
        }
        #expect(
            service.cancelled.value == 0 && service.finished.value == ids.count, Bugs.cancelledWithoutReason.comment)
        if service.startedRequests.map(\.id).sorted() != ids {
            Bugs.requestedTwice.record("fetchAllThumbnails: the requests that started were \(startedIds(service)).")
        }
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
        guard let result = await awaitResult(of: { try await call.value }, orRecord: Bugs.siblingsNotCancelled)
        else { return }
        let (inFlight, cancelled) = (service.inFlight.value, service.cancelled.value)
        #expect(
            throws: ThumbnailServiceError.injectedFailure(id: "b", request: .image), Bugs.wrongThumbnails.comment
        ) {
            try result.get()
        }
        if service.startedRequests.map(\.id).sorted() != ids {
            Bugs.requestedTwice.record(
                "fetchAllThumbnails: after \"b\" failed, the requests that had started were \(startedIds(service)).")
        }
        if inFlight != 0 || cancelled != ids.count - 1 {
            Bugs.siblingsNotCancelled.record(
                "When fetchAllThumbnails threw after \"b\" failed, \(cancelled) of the other 3 requests had seen a cancel and \(inFlight) were still in flight."
            )
        }
    }

    @Test("A failure is never dropped: fetchAllThumbnails throws it even when nothing is held")
    func failureIsThrown() async {
        let service = ThumbnailService()
        service.fail(.image, for: "b")
        let result = await awaitResult(
            of: { try await fetchAllThumbnails(for: ids, from: service) }, orRecord: Bugs.neverReturns)
        guard let result else { return }
        guard case .failure(let error) = result,
            error as? ThumbnailServiceError == .injectedFailure(id: "b", request: .image)
        else {
            Bugs.errorDropped.record("fetchAllThumbnails: the request for \"b\" failed, and \(outcome(result)).")
            return
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
        if let result, !threwCancel(result) {
            Bugs.callerCancelNotPassedOn.record("fetchAllThumbnails was cancelled, and \(outcome(result)).")
        }
        if service.cancelled.value != ids.count {
            Bugs.callerCancelNotPassedOn.record(
                "\(service.cancelled.value) of the \(ids.count) requests saw the cancel of fetchAllThumbnails's caller."
            )
        }
    }

    @Test(
        "A caller cancelled before it calls fetchAllThumbnails starts no request and throws",
        .exposesBug(Bugs.startedWhileCancelled, Bugs.callerCancelNotPassedOn))
    func cancelledBeforeTheCall() async {
        let service = ThumbnailService()
        let call = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await fetchAllThumbnails(for: ids, from: service)
        }
        guard let result = await awaitResult(of: { try await call.value }, orRecord: Bugs.neverReturns) else { return }
        if service.started.value > 0 {
            Bugs.startedWhileCancelled.record(
                "fetchAllThumbnails was called in a cancelled task, and these requests started: \(startedIds(service))."
            )
        }
        if !threwCancel(result) {
            Bugs.callerCancelNotPassedOn.record(
                "fetchAllThumbnails was called in a cancelled task, and \(outcome(result)).")
        }
    }
}
