import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch09CancellationSolution
#else
    import Ch09Cancellation
#endif

private let ids = ["a", "b", "c", "d"]

/// The two styles, by the name of their function.
private let styles: [(name: String, fetch: @Sendable ([String], ThumbnailService) async throws -> [Thumbnail])] = [
    ("fetchThumbnails", { try await fetchThumbnails(for: $0, from: $1) }),
    ("fetchThumbnailsUntilCancelled", { try await fetchThumbnailsUntilCancelled(for: $0, from: $1) }),
]

/// Runs `fetch` in a task that is already cancelled when it makes the call.
private func callCancelledFirst(
    _ fetch: @escaping @Sendable ([String], ThumbnailService) async throws -> [Thumbnail], _ service: ThumbnailService
) async -> Result<[Thumbnail], any Error>? {
    let call = Task {
        withUnsafeCurrentTask { $0?.cancel() }
        return try await fetch(ids, service)
    }
    return await awaitResult(of: { try await call.value }, orRecord: Bugs.neverReturns)
}

/// Checks that style 1 ended by throwing a cancellation error.
private func expectCancelThrown(
    _ result: Result<[Thumbnail], any Error>?, sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let result else { return }
    switch result {
    case .failure(let error) where isCancellation(error):
        break
    default:
        Bugs.cancelNotThrown.record(
            "fetchThumbnails was cancelled, and \(outcome(result)).", sourceLocation: sourceLocation)
    }
}

/// Checks that style 2 returned exactly the thumbnails of `finished`, fully resized.
private func expectPartial(
    _ result: Result<[Thumbnail], any Error>?, _ finished: [String],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let result else { return }
    let expected = "expected [\(finished.map { "\"\($0)\"" }.joined(separator: ", "))]"
    switch result {
    case .success(let thumbnails) where thumbnails == finished.map(fullyResized):
        break
    case .success(let thumbnails) where thumbnails.contains { $0 != fullyResized($0.id) }:
        Bugs.halfResized.record(
            "fetchThumbnailsUntilCancelled: \(outcome(result)); \(expected).", sourceLocation: sourceLocation)
    case .failure(let error) where !(error is CancellationError) && isCancellation(error):
        Bugs.urlCancelMissed.record(
            "fetchThumbnailsUntilCancelled: \(outcome(result)); \(expected).", sourceLocation: sourceLocation)
    default:
        Bugs.partialNotReturned.record(
            "fetchThumbnailsUntilCancelled: \(outcome(result)); \(expected).", sourceLocation: sourceLocation)
    }
}

/// Checks that exactly `count` requests started.
private func expectStarted(
    _ count: Int, _ service: ThumbnailService, in function: String, _ when: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let started = service.started.value
    let should = count == 0 ? "none should have" : "only \(count) should have"
    if started > count {
        Bugs.requestAfterCancel.record(
            "\(function): the requests \(startedIds(service)) started, where \(should), \(when).",
            sourceLocation: sourceLocation)
    } else if started < count {
        Bugs.wrongThumbnails.record(
            "\(function): only the requests \(startedIds(service)) started, where \(count) should have, \(when).",
            sourceLocation: sourceLocation)
    }
}

@Suite("Chapter 09: cancellation is cooperative")
struct FetchThumbnailsTests {
    @Test("Without a cancel, both styles fetch and resize every thumbnail, in order")
    func noCancel() async {
        for style in styles {
            let service = ThumbnailService()
            let result = await awaitResult(of: { try await style.fetch(ids, service) }, orRecord: Bugs.neverReturns)
            if let result, result.value != ids.map(fullyResized) {
                Bugs.wrongThumbnails.record("\(style.name) without a cancel: \(outcome(result)).")
            }
        }
    }

    @Test("A failed request is not a cancel: both styles throw the service's error")
    func failureIsThrown() async {
        for style in styles {
            let service = ThumbnailService()
            service.fail(.image, for: "b")
            let result = await awaitResult(of: { try await style.fetch(ids, service) }, orRecord: Bugs.neverReturns)
            guard let result else { continue }
            guard case .failure(let error) = result,
                error as? ThumbnailServiceError == .injectedFailure(id: "b", request: .image)
            else {
                Bugs.failureSwallowed.record("\(style.name): the request for \"b\" failed, and \(outcome(result)).")
                continue
            }
            if service.started.value != 2 {
                Bugs.wrongThumbnails.record(
                    "\(style.name): the request for \"b\" failed, and the requests that started were \(startedIds(service)), not [\"a\", \"b\"]."
                )
            }
        }
    }

    @Test("Cancelled during a resize, the resize stops within one step", .exposesBug(Bugs.resizeIgnoresCancel))
    func resizeStops() async {
        let service = ThumbnailService()
        service.cancelResizingTask(atOverallStep: 3)
        let call = Task { try await fetchThumbnails(for: ["a"], from: service) }
        guard let result = await awaitResult(of: { try await call.value }, orRecord: Bugs.neverReturns) else { return }
        let steps = service.resizeSteps.value
        if steps > 4 {
            Bugs.resizeIgnoresCancel.record(
                "resizeThumbnail: the task was cancelled during step 3, and \(steps) of \(resizeStepCount) steps ran.")
        } else if case .success = result {
            Bugs.halfResized.record(
                "resizeThumbnail stopped after step \(steps), but fetchThumbnails \(outcome(result)) instead of throwing."
            )
        } else {
            expectCancelThrown(result)
        }
    }

    @Test("After a cancel, no new request starts", .exposesBug(Bugs.requestAfterCancel))
    func noRequestAfterCancel() async {
        let service = ThumbnailService()
        // The cancel comes during the last step of the first resize: the resize itself is done.
        service.cancelResizingTask(atOverallStep: resizeStepCount)
        let call = Task { try await fetchThumbnails(for: ids, from: service) }
        let result = await awaitResult(of: { try await call.value }, orRecord: Bugs.neverReturns)
        expectStarted(1, service, in: "fetchThumbnails", "after a cancel during the last resize step of \"a\"")
        expectCancelThrown(result)
    }

    @Test(
        "A task cancelled before it calls fetchThumbnails starts no request and throws",
        .exposesBug(Bugs.requestAfterCancel))
    func cancelledBeforeTheCall() async {
        let service = ThumbnailService()
        let result = await callCancelledFirst({ try await fetchThumbnails(for: $0, from: $1) }, service)
        expectStarted(0, service, in: "fetchThumbnails", "in a task that was cancelled before the call")
        expectCancelThrown(result)
    }

    @Test("Cancelled while a request is in flight, fetchThumbnails throws the request's cancel")
    func requestSeesTheCancel() async {
        let service = ThumbnailService(holdingRequests: true)
        defer { service.releaseAll() }
        let call = Task { try await fetchThumbnails(for: ids, from: service) }
        await awaitResult(of: { await service.inFlight.reach(1) }, orRecord: Bugs.neverReturns)
        call.cancel()
        let result = await awaitResult(of: { try await call.value }, orRecord: Bugs.neverReturns)
        expectCancelThrown(result)
        expectStarted(1, service, in: "fetchThumbnails", "after a cancel during the request for \"a\"")
    }

    @Test(
        "A task cancelled before it calls fetchThumbnailsUntilCancelled starts no request and returns nothing",
        .exposesBug(Bugs.requestAfterCancel, Bugs.urlCancelMissed))
    func partialCancelledBeforeTheCall() async {
        let service = ThumbnailService()
        let result = await callCancelledFirst({ try await fetchThumbnailsUntilCancelled(for: $0, from: $1) }, service)
        expectStarted(0, service, in: "fetchThumbnailsUntilCancelled", "in a task that was cancelled before the call")
        expectPartial(result, [])
    }

    @Test(
        "Cancelled during a resize, the partial variant returns exactly the thumbnails it finished",
        .exposesBug(Bugs.urlCancelMissed, Bugs.requestAfterCancel))
    func partialAfterResizeCancel() async {
        let service = ThumbnailService()
        service.cancelResizingTask(atOverallStep: 2 * resizeStepCount + 3)  // step 3 of "c"
        let call = Task { try await fetchThumbnailsUntilCancelled(for: ids, from: service) }
        let result = await awaitResult(of: { try await call.value }, orRecord: Bugs.neverReturns)
        expectPartial(result, ["a", "b"])
        expectStarted(3, service, in: "fetchThumbnailsUntilCancelled", "after a cancel during the resize of \"c\"")
    }

    @Test(
        "Cancelled during the last resize step, the partial variant keeps that thumbnail and starts no request",
        .exposesBug(Bugs.urlCancelMissed, Bugs.requestAfterCancel))
    func partialAfterLastResizeStep() async {
        let service = ThumbnailService()
        service.cancelResizingTask(atOverallStep: 2 * resizeStepCount)  // the last step of "b"
        let call = Task { try await fetchThumbnailsUntilCancelled(for: ids, from: service) }
        let result = await awaitResult(of: { try await call.value }, orRecord: Bugs.neverReturns)
        expectPartial(result, ["a", "b"])
        expectStarted(
            2, service, in: "fetchThumbnailsUntilCancelled", "after a cancel during the last resize step of \"b\"")
    }

    @Test(
        "Cancelled while a request is in flight, the partial variant returns exactly the thumbnails it finished",
        .exposesBug(Bugs.urlCancelMissed))
    func partialAfterRequestCancel() async {
        let service = ThumbnailService(holdingRequests: true)
        defer { service.releaseAll() }
        service.admit(.image, id: "a")
        service.admit(.image, id: "b")
        let call = Task { try await fetchThumbnailsUntilCancelled(for: ids, from: service) }
        await awaitResult(of: { await service.started.reach(3) }, orRecord: Bugs.neverReturns)
        call.cancel()
        let result = await awaitResult(of: { try await call.value }, orRecord: Bugs.neverReturns)
        expectPartial(result, ["a", "b"])
        expectStarted(3, service, in: "fetchThumbnailsUntilCancelled", "after a cancel during the request for \"c\"")
    }
}
