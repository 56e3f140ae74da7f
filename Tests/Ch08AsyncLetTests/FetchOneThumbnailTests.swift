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

/// Waits for two requests in flight at once; records the lesson and returns false if they never are.
private func bothInFlight(_ service: ThumbnailService) async -> Bool {
    guard case .finished = await withinHangLimit(hangLimit, { await service.inFlight.reach(2) }) else {
        Bugs.sequential.record(
            "Held at the gate: \(service.heldRequests.map { "\($0.kind) \($0.id)" }); nothing else had started.")
        return false
    }
    return true
}

/// The happy path: the right image and metadata come back.
private func expectBothValues(from fetch: @escaping FetchOne) async {
    let service = ThumbnailService()
    let result = await awaitResult(of: { try await fetch("a", service) }, orRecord: Bugs.neverFinishes)
    #expect(result?.value?.image == .expected(for: "a"), Bugs.wrongResult.comment)
    #expect(result?.value?.metadata == .expected(for: "a"), Bugs.wrongResult.comment)
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
private func expectFailureCancelsTheImage(from fetch: @escaping FetchOne) async {
    let service = ThumbnailService(holdingRequests: true)
    defer { service.releaseAll() }
    service.fail(.metadata, for: "m")
    let call = Task { try await fetch("m", service) }
    guard await bothInFlight(service) else { return }
    service.admit(.metadata, id: "m")
    switch await withinHangLimit(hangLimit, { try await call.value }) {
    case .stillSuspended:
        if service.heldRequests.contains(.init(kind: .image, id: "m")) {
            Bugs.imageAwaitedFirst.record()
        } else {
            Bugs.neverFinishes.record()
        }
    case .finished(let result):
        #expect(
            throws: ThumbnailServiceError.injectedFailure(id: "m", request: .metadata), Bugs.wrongResult.comment
        ) { try result.get() }
        // Read once, at the moment the call has thrown.
        let (inFlight, cancelled) = (service.inFlight.value, service.cancelled.value)
        #expect(inFlight == 0 && cancelled == 1, Bugs.imageOutlivesCall.comment)
    }
}

@Suite("Chapter 08: async let, two requests at once")
struct FetchOneThumbnailTests {
    @Test("fetchOneThumbnail returns the image and the metadata")
    func plainReturnsBoth() async { await expectBothValues(from: plain) }

    @Test("fetchOneThumbnail has both requests in flight at the same moment", .exposesBug(Bugs.sequential))
    func plainIsConcurrent() async { await expectConcurrentRequests(from: plain) }

    @Test(
        "fetchOneThumbnail: when the metadata fails, the image request is cancelled and over before it throws",
        .exposesBug(Bugs.sequential))
    func plainCancelsTheImage() async { await expectFailureCancelsTheImage(from: plain) }

    @Test("fetchOneThumbnailEagerly returns the image and the metadata")
    func eagerReturnsBoth() async { await expectBothValues(from: eagerly) }

    @Test("fetchOneThumbnailEagerly has both requests in flight at the same moment")
    func eagerIsConcurrent() async { await expectConcurrentRequests(from: eagerly) }

    @Test(
        "fetchOneThumbnailEagerly: when the metadata fails, the image request is cancelled and over before it throws",
        .exposesBug(Bugs.imageOutlivesCall))
    func eagerCancelsTheImage() async { await expectFailureCancelsTheImage(from: eagerly) }
}
