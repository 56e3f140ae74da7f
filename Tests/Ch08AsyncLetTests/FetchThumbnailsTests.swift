import Foundation
import SimulatedWorld
import Testing
import WorkbookTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if Solutions
    import Ch08AsyncLetSolution
#else
    import Ch08AsyncLet
#endif

private let ids = ["a", "b", "c"]

/// Whether `error` is how a request says it saw its task's cancel: `CancellationError`, or
/// `URLError(.cancelled)` as URLSession throws it.
func isCancellation(_ error: any Error) -> Bool {
    if error is CancellationError { return true }
    return (error as? URLError)?.code == .cancelled
}

/// What a call returned, in a few words for a failure message.
func describe(_ result: Result<[String: Thumbnail], any Error>) -> String {
    switch result {
    case .success(let thumbnails): "returned \(thumbnails.count) thumbnails (\(thumbnails.keys.sorted()))"
    case .failure(let error): "threw \(error)"
    }
}

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
        if let result {
            #expect(
                throws: ThumbnailServiceError.injectedFailure(id: "b", request: .image),
                Bugs.errorSwallowed.comment("The image of \"b\" failed, and fetchThumbnails \(describe(result)).")
            ) { try result.get() }
        }
        #expect(
            service.startedRequests.map(\.id) == ["a", "b"],
            Bugs.notOneAfterTheOther.comment(
                "The image of \"b\" failed; the requests were \(service.startedRequests.map(\.id)), expected [\"a\", \"b\"]."
            ))
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
            #expect(
                result.failure.map(isCancellation) == true,
                Bugs.cancelDoesNotReachRequest.comment("After the cancel, fetchThumbnails \(describe(result)).")
            )
        }
        #expect(
            service.cancelled.value == 1 && service.started.value == 1, Bugs.cancelDoesNotReachRequest.comment)
    }

    @Test(
        "Called in a task that is already cancelled, it throws the cancel and no request runs to the end",
        .exposesBug(Bugs.cancelledCallStillFetches))
    func alreadyCancelled() async {
        let service = ThumbnailService()
        let call = Task { () -> Result<[String: Thumbnail], any Error> in
            withUnsafeCurrentTask { $0?.cancel() }  // cancelled before the call
            do { return .success(try await fetchThumbnails(for: ids, from: service)) } catch { return .failure(error) }
        }
        guard let result = await awaitResult(of: { await call.value }, orRecord: Bugs.warmUpNeverReturns)?.value
        else { return }
        // Read at the moment the call returned or threw.
        let finished = service.finished.value
        #expect(
            finished == 0 && result.failure.map(isCancellation) == true,
            Bugs.cancelledCallStillFetches.comment(
                "The task was cancelled before the call; fetchThumbnails \(describe(result)), after \(finished) of \(ids.count) requests ran to the end."
            ))
    }
}

extension Result {
    /// The error, if this is a failure.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
