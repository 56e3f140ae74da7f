import Foundation
import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch08AsyncLetSolution
#else
    import Ch08AsyncLet
#endif

private let ids = ["a", "b", "c"]

@Suite("Chapter 08 warm-up: from a recursive completion handler to an async loop")
struct FetchThumbnailsTests {
    @Test("Every thumbnail comes back, fetched one at a time in the order of the ids")
    func everyThumbnail() async {
        let service = ThumbnailService()
        let result = await awaitResult(
            of: { try await fetchThumbnails(for: ids, from: service) }, orRecord: Bugs.warmUpNeverReturns)
        let expected = Dictionary(uniqueKeysWithValues: ids.map { ($0, Thumbnail.expected(for: $0)) })
        #expect(result?.value == expected, Bugs.wrongThumbnails.comment)
        #expect(
            service.startedRequests == ids.map { .init(kind: .image, id: $0) } && service.inFlight.peak == 1,
            Bugs.notOneAfterTheOther.comment)
    }

    @Test(
        "A failed request is thrown to the caller, and no request starts after it",
        .exposesBug(Bugs.errorSwallowed))
    func errorIsThrown() async {
        let service = ThumbnailService()
        service.fail(.image, for: "b")
        let result = await awaitResult(
            of: { try await fetchThumbnails(for: ids, from: service) }, orRecord: Bugs.warmUpNeverReturns)
        #expect(throws: ThumbnailServiceError.injectedFailure(id: "b", request: .image), Bugs.errorSwallowed.comment) {
            try result?.get()
        }
        #expect(service.started.value == 2, Bugs.notOneAfterTheOther.comment)
    }

    @Test(
        "Cancelling the caller cancels the request it is waiting for",
        .exposesBug(Bugs.cancelDoesNotReachRequest))
    func cancellationReachesTheRequest() async {
        let service = ThumbnailService(holdingRequests: true)
        defer { service.releaseAll() }
        let call = Task { try await fetchThumbnails(for: ids, from: service) }
        await awaitResult(of: { await service.inFlight.reach(1) }, orRecord: Bugs.warmUpNeverReturns)
        call.cancel()
        let result = await awaitResult(of: { try await call.value }, orRecord: Bugs.cancelDoesNotReachRequest)
        if let result {
            // The held request sees the cancel and throws URLError(.cancelled), as URLSession does.
            #expect(throws: URLError(.cancelled), Bugs.cancelDoesNotReachRequest.comment) { try result.get() }
        }
        #expect(
            service.cancelled.value == 1 && service.started.value == 1, Bugs.cancelDoesNotReachRequest.comment)
    }
}
