import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch23TaskLocalsAndPrioritySolution
#else
    import Ch23TaskLocalsAndPriority
#endif

/// A held backend with a prefetch of `page` started and held in it; nil (with a lesson
/// recorded) if the prefetch never reached the backend.
func heldPrefetch(of page: Int) async -> (TracedBackend, PagePrefetcher)? {
    let backend = TracedBackend(holding: true)
    let prefetcher = PagePrefetcher(backend: backend)
    await prefetcher.prefetch(page)
    guard await awaitCalls(backend, 1, orRecord: Bugs.neverReturns) else {
        backend.releaseAll()
        return nil
    }
    return (backend, prefetcher)
}

/// Starts a `.userInitiated` load of `page`, whose prefetch is held in `backend`, and waits
/// until the prefetch is escalated to the load's priority; records the lesson if it never is.
func urgentLoad(
    of page: Int, from prefetcher: PagePrefetcher, on backend: TracedBackend
) async -> Task<String, any Error> {
    let load = Task(priority: .userInitiated) { try await prefetcher.load(page) }
    let escalated = backend.escalated
    if case .stillSuspended = await withinHangLimit(hangLimit, { await escalated.reach(1) }) {
        Bugs.userWaitsAtBackground.record(
            "PagePrefetcher.load (PagePrefetcher.swift): while a .userInitiated task waited for page \(page), the prefetch ran at \(describe(backend.calls[0].priority)) all along."
        )
    } else if let escalation = backend.escalations.first, escalation.to < .userInitiated {
        Bugs.userWaitsAtBackground.record(
            "The prefetch of page \(page) was raised only to \(describe(escalation.to)), below the waiting .userInitiated task."
        )
    }
    return load
}

/// Checks that `backend` saw exactly one call, for `page`.
func expectOneCall(_ backend: TracedBackend, for page: Int) {
    let endpoints = backend.calls.map(\.endpoint)
    if endpoints.count > 1 {
        Bugs.fetchedTwice.record("PagePrefetcher.load (PagePrefetcher.swift): the backend saw \(endpoints).")
    }
    #expect(endpoints.first == "page \(page)", Bugs.wrongPage.comment)
}

@Suite("Chapter 23: a prefetch that the user waits for")
struct PrefetcherTests {
    @Test("A prefetch starts at background priority")
    func prefetchStartsInTheBackground() async {
        guard let (backend, _) = await heldPrefetch(of: 2) else { return }
        let priority = backend.calls[0].priority
        if priority != .background {
            Bugs.prefetchNotBackground.record(
                "PagePrefetcher.prefetch (PagePrefetcher.swift) fetched page 2 at \(describe(priority)).")
        }
        backend.releaseAll()
    }

    @Test(
        "Loading a page being prefetched raises the prefetch to the caller's priority",
        .exposesBug(Bugs.userWaitsAtBackground))
    func waiterEscalatesThePrefetch() async {
        guard let (backend, prefetcher) = await heldPrefetch(of: 2) else { return }
        let load = await urgentLoad(of: 2, from: prefetcher, on: backend)
        backend.letThrough("page 2")
        let page = await awaitResult(of: { try await load.value }, orRecord: Bugs.neverReturns)
        #expect(page?.value == "page 2: ok", Bugs.wrongPage.comment)
        expectOneCall(backend, for: 2)
    }

    @Test(
        "Cancelling a load that waits for a prefetch leaves the prefetch running for the next load",
        .exposesBug(Bugs.userWaitsAtBackground))
    func cancelledLoadKeepsThePrefetch() async {
        guard let (backend, prefetcher) = await heldPrefetch(of: 7) else { return }
        // The escalation shows that the load is waiting for the prefetch.
        let load = await urgentLoad(of: 7, from: prefetcher, on: backend)
        load.cancel()
        backend.letThrough("page 7")
        switch await awaitResult(of: { try await load.value }, orRecord: Bugs.neverReturns) {
        case .success("page 7: ok"), .failure(is CancellationError), nil:
            break
        case let outcome?:
            Bugs.prefetchCancelledWithLoad.record(
                "The cancelled load of page 7 ended with \(describeOutcome(outcome)), not the page or CancellationError."
            )
        }
        let next = await awaitResult(of: { try await prefetcher.load(7) }, orRecord: Bugs.neverReturns)
        if next?.value != "page 7: ok" || backend.calls.count > 1 {
            Bugs.prefetchCancelledWithLoad.record(
                "After one load of page 7 was cancelled, the next load \(describeOutcome(next)), and the backend saw \(backend.calls.map(\.endpoint))."
            )
        }
    }

    @Test("A prefetched page loads without a second call")
    func prefetchedPageIsKept() async {
        let backend = TracedBackend()
        let prefetcher = PagePrefetcher(backend: backend)
        await prefetcher.prefetch(3)
        let ended = backend.ended
        guard await awaitResult(of: { await ended.reach(1) }, orRecord: Bugs.neverReturns) != nil else { return }
        let first = try? await prefetcher.load(3)
        let second = try? await prefetcher.load(3)
        #expect(first == "page 3: ok" && second == "page 3: ok", Bugs.wrongPage.comment)
        expectOneCall(backend, for: 3)
    }

    @Test("A page prefetched twice, or prefetched after it was fetched, is fetched once")
    func prefetchIsNotRepeated() async {
        guard let (backend, prefetcher) = await heldPrefetch(of: 6) else { return }
        await prefetcher.prefetch(6)
        backend.letThrough("page 6")
        let first = await awaitResult(of: { try await prefetcher.load(6) }, orRecord: Bugs.neverReturns)
        await prefetcher.prefetch(6)
        let second = await awaitResult(of: { try await prefetcher.load(6) }, orRecord: Bugs.neverReturns)
        #expect(first?.value == "page 6: ok" && second?.value == "page 6: ok", Bugs.wrongPage.comment)
        expectOneCall(backend, for: 6)
    }

    @Test("A failed prefetch is forgotten: the page is fetched again")
    func failedPrefetchIsForgotten() async {
        let backend = TracedBackend()
        backend.failCalls(per: FailurePlan(failingCall: 1))
        let prefetcher = PagePrefetcher(backend: backend)
        await prefetcher.prefetch(4)
        let ended = backend.ended
        guard await awaitResult(of: { await ended.reach(1) }, orRecord: Bugs.neverReturns) != nil else { return }
        // A load that comes while the failure is being delivered may still get its error;
        // the load after that must fetch the page again.
        if (try? await prefetcher.load(4)) == nil {
            let retry = await awaitResult(of: { try await prefetcher.load(4) }, orRecord: Bugs.neverReturns)
            if case .failure(let error) = retry {
                Bugs.failureReplayed.record(
                    "PagePrefetcher.load (PagePrefetcher.swift): the prefetch of page 4 failed; the next two loads \(describeThrown(error)), and the backend saw \(backend.calls.map(\.endpoint))."
                )
            }
        }
        #expect(backend.calls.count == 2, "\(backend.calls.map(\.endpoint))")
    }
}
