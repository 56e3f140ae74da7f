import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch23TaskLocalsAndPrioritySolution
#else
    import Ch23TaskLocalsAndPriority
#endif

/// Checks that every call of `backend` whose endpoint ends with `order` carried `traceID`.
func expectTraced(_ backend: TracedBackend, order: String, traceID: String) {
    for call in backend.calls where call.endpoint.hasSuffix(" \(order)") && call.traceID != traceID {
        let lesson = call.traceID == nil ? Bugs.traceLost : Bugs.traceMixedUp
        lesson.record(
            "CheckoutHandler.handle (CheckoutHandler.swift) for trace id \"\(traceID)\": the backend saw \(call).")
    }
}

/// Waits until `backend` has seen `count` calls start; records `lesson` if it never does.
@discardableResult
func awaitCalls(_ backend: TracedBackend, _ count: Int, orRecord lesson: Lesson) async -> Bool {
    let started = backend.started
    return await awaitResult(of: { await started.reach(count) }, orRecord: lesson) != nil
}

@Suite("Chapter 23: the trace id of a checkout request")
struct CheckoutTests {
    @Test("The receipt carries the request's trace id", .exposesBug(Bugs.traceLost))
    func receiptCarriesTheTraceID() async throws {
        let backend = TracedBackend()
        let answer = try await CheckoutHandler(backend: backend).handle(
            CheckoutRequest(traceID: "t-1", order: "o-1"))
        #expect(answer == "charge o-1: ok", Bugs.wrongAnswer.comment)
        guard await awaitCalls(backend, 2, orRecord: Bugs.neverReturns) else { return }
        #expect(backend.calls.map(\.endpoint) == ["charge o-1", "receipt o-1"], Bugs.wrongAnswer.comment)
        expectTraced(backend, order: "o-1", traceID: "t-1")
    }

    @Test("Two requests in flight at once each carry their own trace id", .exposesBug(Bugs.traceLost))
    func overlappingRequests() async {
        let backend = TracedBackend(holding: true)
        backend.letThrough("receipt o-a")
        backend.letThrough("receipt o-b")
        let handler = CheckoutHandler(backend: backend)
        let first = Task { try await handler.handle(CheckoutRequest(traceID: "t-a", order: "o-a")) }
        let second = Task { try await handler.handle(CheckoutRequest(traceID: "t-b", order: "o-b")) }
        guard await awaitCalls(backend, 2, orRecord: Bugs.neverReturns) else { return backend.releaseAll() }
        // Both charges are held now; the later request goes through first.
        backend.letThrough("charge o-b")
        _ = await awaitResult(of: { try await second.value }, orRecord: Bugs.neverReturns)
        backend.letThrough("charge o-a")
        _ = await awaitResult(of: { try await first.value }, orRecord: Bugs.neverReturns)
        guard await awaitCalls(backend, 4, orRecord: Bugs.neverReturns) else { return }
        expectTraced(backend, order: "o-a", traceID: "t-a")
        expectTraced(backend, order: "o-b", traceID: "t-b")
    }

    @Test(
        "The answer does not wait for the receipt, which runs at background priority",
        .exposesBug(Bugs.traceLost))
    func receiptInTheBackground() async {
        let backend = TracedBackend(holding: true)
        backend.letThrough("charge o-1")
        let handler = CheckoutHandler(backend: backend)
        let request = CheckoutRequest(traceID: "t-1", order: "o-1")
        let answer = await awaitResult(
            of: { try await Task(priority: .userInitiated) { try await handler.handle(request) }.value },
            orRecord: Bugs.answerWaitsForReceipt)
        #expect(answer?.value == "charge o-1: ok", Bugs.wrongAnswer.comment)
        if await awaitCalls(backend, 2, orRecord: Bugs.neverReturns), let receipt = backend.calls.last {
            if receipt.priority != .background {
                Bugs.receiptNotBackground.record(
                    "The receipt of a request answered at .userInitiated ran at \(describe(receipt.priority)).")
            }
            expectTraced(backend, order: "o-1", traceID: "t-1")
        }
        backend.releaseAll()
    }

    @Test("A failed charge throws its error, sends no receipt, and the next request works")
    func failedCharge() async {
        let backend = TracedBackend()
        let plan = FailurePlan(failingCall: 1)
        backend.failCalls(per: plan)
        let handler = CheckoutHandler(backend: backend)
        do {
            let answer = try await handler.handle(CheckoutRequest(traceID: "t-1", order: "o-1"))
            Bugs.wrongAnswer.record("The charge failed, yet handle returned \"\(answer)\".")
        } catch let error as BackendFailure {
            #expect(error == BackendFailure(endpoint: "charge o-1"), Bugs.wrongAnswer.comment)
        } catch {
            Bugs.wrongAnswer.record("The charge failed with BackendFailure, but handle \(describeThrown(error)).")
        }
        // The next request's receipt shows that the handler has moved on.
        let answer = try? await handler.handle(CheckoutRequest(traceID: "t-2", order: "o-2"))
        #expect(answer == "charge o-2: ok", Bugs.wrongAnswer.comment)
        guard await awaitCalls(backend, 3, orRecord: Bugs.neverReturns) else { return }
        if backend.calls.contains(where: { $0.endpoint == "receipt o-1" }) {
            Bugs.receiptWithoutCharge.record("The backend saw: \(backend.calls).")
        }
    }
}
