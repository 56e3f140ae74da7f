import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch23TaskLocalsAndPrioritySolution
#else
    import Ch23TaskLocalsAndPriority
#endif

// Chapter 23's contract for CheckoutHandler, explored on its own: a cancel before the call and
// after every backend call that starts, and a failure of every backend call, each followed by
// a second request on the same backend. Each failure names the lesson and adds a reproducer.

private let request = CheckoutRequest(traceID: "t-1", order: "o-1")

/// One checkout as the contract sees it: the answer, and (after a successful charge) the wait
/// until the receipt's call has started, so every run has the same steps.
@Sendable private func checkout(_ backend: TracedBackend) async throws -> String {
    let before = backend.started.value
    let answer = try await CheckoutHandler(backend: backend).handle(request)
    await backend.started.reach(before + 2)
    return answer
}

/// What every run must keep: every call carries the trace id, and no receipt follows a charge
/// that did not go through.
private func tracedAndOrdered(_ backend: TracedBackend, answered: Bool) -> [Violation] {
    var violations: [Violation] = []
    for call in backend.calls where call.traceID != request.traceID {
        violations.append(Violation(Bugs.traceLost, "handle: the backend saw \(call)"))
    }
    if !answered, backend.calls.contains(where: { $0.endpoint.hasPrefix("receipt") }) {
        violations.append(
            Violation(
                Bugs.receiptWithoutCharge,
                "handle threw, yet the backend saw \(backend.calls.map(\.endpoint))"))
    }
    return violations
}

@Suite("Chapter 23: the checkout's contract at every cancel point and every failure point")
struct CheckoutContractTests {
    @Test(
        "handle, cancelled before the call or after any backend call, throws or answers, and traces every call",
        .exposesBug(Bugs.traceLost))
    func everyCancelPoint() async {
        let report = await exploreCancelPoints(
            "handle(CheckoutRequest(traceID: \"t-1\", order: \"o-1\"))",
            world: { probe in
                let backend = TracedBackend()
                backend.onCallStart { call in probe.step("call \"\(call.endpoint)\" starts") }
                return backend
            },
            operation: checkout
        ) { run, backend in
            guard let result = run.outcome else { return [Violation(Bugs.neverReturns, describeOutcome(run.outcome))] }
            var violations = tracedAndOrdered(backend, answered: result.value != nil)
            switch (run.cancelAfter, result) {
            case (_, .success("charge o-1: ok")):
                // Answering is right without a cancel, and once the charge has gone through.
                if let point = run.cancelAfter, point < 2 {
                    violations.append(
                        Violation(Bugs.wrongAnswer, "handle answered although its charge was cancelled"))
                }
            case (.some, .failure(let error)) where error is CancellationError:
                break
            default:
                violations.append(Violation(Bugs.wrongAnswer, "handle: \(describeOutcome(result))"))
            }
            return violations
        }
        report.record()
    }

    @Test(
        "Whichever backend call fails, handle answers as the charge did, and the next request works",
        .exposesBug(Bugs.traceLost))
    func everyFailurePoint() async {
        let report = await exploreFailurePoints(
            "handle(CheckoutRequest(traceID: \"t-1\", order: \"o-1\")), twice",
            world: { plan in
                let backend = TracedBackend()
                backend.failCalls(per: plan)
                return backend
            },
            operation: checkout
        ) { run, backend in
            guard let result = run.outcome, let recovery = run.recovery else {
                return [Violation(Bugs.neverReturns, describeOutcome(run.outcome))]
            }
            var violations = tracedAndOrdered(backend, answered: true)
            let chargeFailed = run.failedCall == "\"charge o-1\""
            switch result {
            case .failure(let error as BackendFailure) where chargeFailed:
                if error != BackendFailure(endpoint: "charge o-1") {
                    violations.append(Violation(Bugs.wrongAnswer, "handle: \(describeThrown(error))"))
                }
                if run.calls.count != 1 {
                    violations.append(
                        Violation(Bugs.receiptWithoutCharge, "the charge failed, yet the backend saw \(run.calls)"))
                }
            case .success("charge o-1: ok") where !chargeFailed:
                break
            default:
                violations.append(
                    Violation(
                        Bugs.wrongAnswer,
                        "handle, with \(run.failedCall ?? "no call") failing: \(describeOutcome(result))"))
            }
            if recovery.value != "charge o-1: ok" {
                violations.append(
                    Violation(Bugs.wrongAnswer, "handle, called again with no failure: \(describeOutcome(recovery))"))
            }
            return violations
        }
        report.record()
    }
}

@Suite("Chapter 23: the prefetcher's contract at every failure point")
struct PrefetcherContractTests {
    @Test("Whichever call fails, a load waiting for the prefetch gets its error, and the next prefetch and load work")
    func everyFailurePoint() async {
        let report = await exploreFailurePoints(
            "prefetch(5), then load(5) at once, twice",
            world: { plan in
                let backend = TracedBackend()
                backend.failCalls(per: plan)
                return PagePrefetcher(backend: backend)
            },
            operation: { prefetcher in
                await prefetcher.prefetch(5)
                return try await prefetcher.load(5)
            }
        ) { run, _ in
            guard let result = run.outcome, let recovery = run.recovery else {
                return [Violation(Bugs.neverReturns, describeOutcome(run.outcome))]
            }
            var violations: [Violation] = []
            if run.calls.count > 1 {
                violations.append(
                    Violation(Bugs.fetchedTwice, "load(5) right after prefetch(5): the backend saw \(run.calls)"))
            }
            switch result {
            case .failure(let error) where run.failingCall != nil && error is BackendFailure:
                break
            case .success("page 5: ok") where run.failingCall == nil:
                break
            default:
                violations.append(
                    Violation(
                        Bugs.wrongPage,
                        "load(5), with \(run.failedCall ?? "no call") failing: \(describeOutcome(result))"))
            }
            if recovery.value != "page 5: ok" {
                let lesson = run.failingCall == nil ? Bugs.wrongPage : Bugs.failureReplayed
                violations.append(
                    Violation(lesson, "prefetch(5) and load(5) again, with no failure: \(describeOutcome(recovery))"))
            }
            return violations
        }
        report.record()
    }
}
