import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch08AsyncLetSolution
#else
    import Ch08AsyncLet
#endif

/// Either version of the exercise: fetch the image and the metadata of an id.
private typealias FetchOne =
    @Sendable (String, ThumbnailService) async throws -> (image: Thumbnail, metadata: ThumbnailMetadata)

private let plain: FetchOne = { try await fetchOneThumbnail(id: $0, from: $1) }
private let eagerly: FetchOne = { try await fetchOneThumbnailEagerly(id: $0, from: $1) }

/// What a call returned, at the moment it returned, and what the service counted then.
private struct Outcome: Sendable {
    let result: Result<(image: Thumbnail, metadata: ThumbnailMetadata), any Error>
    /// Requests in flight, and requests that had seen a cancel, read in the calling task
    /// right after the call returned or threw, before anything else can run in that task.
    let inFlight: Int
    let cancelled: Int
}

/// Calls `fetch` in a task of its own, and reads the service's counts the moment it returns.
private func call(
    _ fetch: @escaping FetchOne, id: String, on service: ThumbnailService, alreadyCancelled: Bool = false
) -> Task<Outcome, Never> {
    Task {
        if alreadyCancelled { withUnsafeCurrentTask { $0?.cancel() } }
        let result: Result<(image: Thumbnail, metadata: ThumbnailMetadata), any Error>
        do { result = .success(try await fetch(id, service)) } catch { result = .failure(error) }
        return Outcome(result: result, inFlight: service.inFlight.value, cancelled: service.cancelled.value)
    }
}

/// Checks that every kind of request for `id` was asked for at most once (exactly once if
/// `both`), and names the one asked for twice.
private func expectAskedOnce(
    _ service: ThumbnailService, id: String, both: Bool, in function: String, when situation: String
) {
    for kind in [ThumbnailService.RequestKind.image, .metadata] {
        let times = service.startedRequests.filter { $0 == .init(kind: kind, id: id) }.count
        if times > 1 {
            Bugs.askedTwice.record("\(situation), \(function) asked for the \(kind) of \"\(id)\" \(times) times.")
        } else if both && times == 0 {
            Bugs.wrongResult.record("\(situation), \(function) never asked for the \(kind) of \"\(id)\".")
        }
    }
}

/// Waits for two requests in flight at once; records the lesson and returns false if they never are.
private func bothInFlight(_ service: ThumbnailService) async -> Bool {
    guard case .finished = await withinHangLimit(hangLimit, { await service.inFlight.reach(2) }) else {
        Bugs.sequential.record(
            "Held at the gate: \(service.heldRequests.map { "\($0.kind) \($0.id)" }); nothing else had started.")
        return false
    }
    return true
}

/// The happy path: the right image and metadata come back, each asked for once.
private func expectBothValues(from fetch: @escaping FetchOne, in function: String) async {
    let service = ThumbnailService()
    let result = await awaitResult(of: { try await fetch("a", service) }, orRecord: Bugs.neverFinishes)
    #expect(result?.value?.image == .expected(for: "a"), Bugs.wrongResult.comment)
    #expect(result?.value?.metadata == .expected(for: "a"), Bugs.wrongResult.comment)
    expectAskedOnce(service, id: "a", both: true, in: function, when: "Returning the thumbnail of \"a\"")
}

/// Holds both requests at the gate: both must be in flight at the same moment.
private func expectConcurrentRequests(from fetch: @escaping FetchOne) async {
    let service = ThumbnailService(holdingRequests: true)
    let call = Task { try await fetch("a", service) }
    _ = await bothInFlight(service)
    service.releaseAll()
    let result = await awaitResult(of: { try await call.value }, orRecord: Bugs.neverFinishes)
    #expect(result?.value?.image == .expected(for: "a"), Bugs.wrongResult.comment)
}

/// Fails the metadata while the image is held: by the time the call throws, the image
/// request must have seen the cancel and ended.
private func expectFailureCancelsTheImage(from fetch: @escaping FetchOne, in function: String) async {
    let service = ThumbnailService(holdingRequests: true)
    defer { service.releaseAll() }
    service.fail(.metadata, for: "m")
    let call = call(fetch, id: "m", on: service)
    guard await bothInFlight(service) else { return }
    service.admit(.metadata, id: "m")
    switch await withinHangLimit(hangLimit, { await call.value }) {
    case .stillSuspended:
        if service.heldRequests.contains(.init(kind: .image, id: "m")) {
            Bugs.imageAwaitedFirst.record()
        } else {
            Bugs.neverFinishes.record()
        }
    case .finished(let outcome):
        #expect(
            throws: ThumbnailServiceError.injectedFailure(id: "m", request: .metadata), Bugs.wrongResult.comment
        ) { try outcome.get().result.get() }
        // Counted in the calling task, the moment the call threw.
        let (inFlight, cancelled) = (outcome.value?.inFlight ?? -1, outcome.value?.cancelled ?? -1)
        #expect(
            inFlight == 0 && cancelled == 1,
            Bugs.imageOutlivesCall.comment(
                "When \(function) threw, \(inFlight) request(s) were still in flight and \(cancelled) had seen a cancel."
            ))
        expectAskedOnce(
            service, id: "m", both: false, in: function, when: "With the metadata of \"m\" failing")
    }
}

/// Calls in a task that is already cancelled: the call throws the cancel, and no request
/// runs to the end.
private func expectEarlierCancelIsSeen(from fetch: @escaping FetchOne, in function: String) async {
    let service = ThumbnailService()
    let call = call(fetch, id: "a", on: service, alreadyCancelled: true)
    guard let outcome = await awaitResult(of: { await call.value }, orRecord: Bugs.neverFinishes)?.value else {
        return
    }
    let finished = service.finished.value
    switch outcome.result {
    case .success:
        Bugs.ignoresEarlierCancel.record(
            "The task was cancelled before the call, and \(function) returned the thumbnail; \(finished) request(s) ran to the end."
        )
    case .failure(let error):
        #expect(
            isCancellation(error) && finished == 0 && outcome.inFlight == 0,
            Bugs.ignoresEarlierCancel.comment(
                "The task was cancelled before the call; \(function) threw \(error), after \(finished) request(s) ran to the end, with \(outcome.inFlight) still in flight."
            ))
    }
}

@Suite("Chapter 08: async let, two requests at once")
struct FetchOneThumbnailTests {
    @Test("fetchOneThumbnail returns the image and the metadata, each asked for once")
    func plainReturnsBoth() async { await expectBothValues(from: plain, in: "fetchOneThumbnail") }

    @Test("fetchOneThumbnail has both requests in flight at the same moment", .exposesBug(Bugs.sequential))
    func plainIsConcurrent() async { await expectConcurrentRequests(from: plain) }

    @Test(
        "fetchOneThumbnail: when the metadata fails, the image request is cancelled and over before it throws",
        .exposesBug(Bugs.sequential))
    func plainCancelsTheImage() async { await expectFailureCancelsTheImage(from: plain, in: "fetchOneThumbnail") }

    @Test("fetchOneThumbnail, called in a task that is already cancelled, throws the cancel and fetches nothing")
    func plainSeesAnEarlierCancel() async { await expectEarlierCancelIsSeen(from: plain, in: "fetchOneThumbnail") }

    @Test("fetchOneThumbnailEagerly returns the image and the metadata, each asked for once")
    func eagerReturnsBoth() async { await expectBothValues(from: eagerly, in: "fetchOneThumbnailEagerly") }

    @Test("fetchOneThumbnailEagerly has both requests in flight at the same moment")
    func eagerIsConcurrent() async { await expectConcurrentRequests(from: eagerly) }

    @Test(
        "fetchOneThumbnailEagerly: when the metadata fails, the image request is cancelled and over before it throws",
        .exposesBug(Bugs.imageOutlivesCall))
    func eagerCancelsTheImage() async {
        await expectFailureCancelsTheImage(from: eagerly, in: "fetchOneThumbnailEagerly")
    }
}
