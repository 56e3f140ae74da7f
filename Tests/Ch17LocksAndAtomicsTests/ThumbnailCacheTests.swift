import Foundation
import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch17LocksAndAtomicsSolution
#else
    import Ch17LocksAndAtomics
#endif

@Suite("Chapter 17: the thumbnail cache")
struct ThumbnailCacheTests {
    @Test("A fetched thumbnail is kept: the next call and a synchronous lookup get it without a fetch")
    func servesWhatItFetched() async {
        await Scenario.cacheServesWhatItFetched.runInChildProcess()
    }

    @Test("A failed fetch throws the service's error and keeps nothing")
    func failedFetchIsNotKept() async {
        await Scenario.failedFetchIsNotKept.runInChildProcess()
    }

    @Test(
        "cachedThumbnail(for:) answers at once while another thumbnail is being fetched",
        .exposesBug(Bugs.lookupWaitsForFetch))
    func lookupDuringFetch() async {
        await Scenario.lookupDuringFetch.runInChildProcess()
    }

    @Test(
        "Many cells at every priority load at once: thumbnail(for:) never blocks the pool",
        .exposesBug(Bugs.cacheBlocksPool))
    func manyCallers() async {
        await Scenario.cacheManyCallers.runInChildProcess()
    }
}

// MARK: The scenarios, played in the child process

extension Scenario {
    func cacheServesWhatItFetched(_ progress: ScenarioProgress) async {
        let service = ThumbnailService()
        let cache = ThumbnailCache(service: service)
        progress.report {
            "thumbnail(for: \"beach\") had not returned; the service had started \(service.started.value) fetch(es)."
        }
        if let early = cache.cachedThumbnail(for: "beach") {
            Bugs.wrongThumbnail.record(
                "cachedThumbnail(for: \"beach\") returned \(early.id) before anything was fetched.")
        }
        for call in 1...2 {
            let result = await awaitResult(of: { try await cache.thumbnail(for: "beach") }, orRecord: Bugs.neverReturns)
            switch result {
            case .success(let thumbnail) where thumbnail != .expected(for: "beach"):
                Bugs.wrongThumbnail.record(
                    "Call \(call) of thumbnail(for: \"beach\") returned the thumbnail of \"\(thumbnail.id)\".")
            case .failure(let error):
                Bugs.wrongThumbnail.record("Call \(call) of thumbnail(for: \"beach\") threw \(error).")
            default:
                break
            }
        }
        let fetches = service.started.value
        if fetches > 1 {
            Bugs.fetchedAgain.record(
                "thumbnail(for: \"beach\") was called twice, one call after the other, and the service was asked \(fetches) times."
            )
        }
        let cached = await onPlainThread(
            orRecord: Bugs.lookupWaitsForFetch, "cachedThumbnail(for: \"beach\") never returned, with no fetch running."
        ) { cache.cachedThumbnail(for: "beach") }
        if let cached, cached != .expected(for: "beach") {
            Bugs.wrongThumbnail.record(
                "After thumbnail(for: \"beach\") returned, cachedThumbnail(for: \"beach\") returned \(cached.map { "\"\($0.id)\"" } ?? "nil")."
            )
        }
    }

    func failedFetchIsNotKept(_ progress: ScenarioProgress) async {
        let service = ThumbnailService()
        let cache = ThumbnailCache(service: service)
        service.fail(.image, for: "broken")
        progress.report {
            "thumbnail(for: \"broken\") had not returned; the service had started \(service.started.value) fetch(es)."
        }
        let result = await awaitResult(of: { try await cache.thumbnail(for: "broken") }, orRecord: Bugs.neverReturns)
        if case .success(let thumbnail) = result {
            Bugs.failureHidden.record(
                "The service failed the fetch of \"broken\", yet thumbnail(for: \"broken\") returned a thumbnail of \"\(thumbnail.id)\"."
            )
        }
        if case .failure(let error) = result, !(error is ThumbnailServiceError) {
            Bugs.failureHidden.record(
                "The service failed the fetch of \"broken\", and thumbnail(for:) threw \(error) instead of its error.")
        }
        let cached = await onPlainThread(
            orRecord: Bugs.lookupWaitsForFetch,
            "cachedThumbnail(for: \"broken\") never returned, with no fetch running."
        ) { cache.cachedThumbnail(for: "broken") }
        if let kept = cached ?? nil {
            Bugs.failureHidden.record(
                "After the fetch of \"broken\" failed, the cache kept a thumbnail of \"\(kept.id)\" for it.")
        }
    }

    func lookupDuringFetch(_ progress: ScenarioProgress) async {
        let service = ThumbnailService()
        let cache = ThumbnailCache(service: service)
        progress.report {
            "thumbnail(for: \"beach\") had not returned; the service had started \(service.started.value) fetch(es)."
        }
        guard
            case .success = await awaitResult(
                of: { try await cache.thumbnail(for: "beach") }, orRecord: Bugs.neverReturns)
        else { return }

        // The fetch of "forest" is held by the service: the network is slow today.
        service.holdRequests()
        progress.report {
            "The fetch of \"forest\" was held by the service, and the service had started \(service.started.value) fetch(es) in all."
        }
        let forest = Task { try await cache.thumbnail(for: "forest") }
        guard await awaitResult(of: { await service.started.reach(2) }, orRecord: Bugs.neverReturns) != nil else {
            service.releaseAll()
            return
        }
        // Meanwhile a cell for "beach" is configured, synchronously, on its own thread.
        let beach = await onPlainThread(
            orRecord: Bugs.lookupWaitsForFetch,
            "While the service held the fetch of \"forest\", cachedThumbnail(for: \"beach\") (already cached) did not return: it was waiting for that fetch."
        ) { cache.cachedThumbnail(for: "beach") }
        if let beach, beach != .expected(for: "beach") {
            Bugs.wrongThumbnail.record(
                "cachedThumbnail(for: \"beach\") returned \(beach.map { "\"\($0.id)\"" } ?? "nil") after \"beach\" was fetched."
            )
        }
        service.releaseAll()
        let result = await awaitResult(of: { try await forest.value }, orRecord: Bugs.neverReturns)
        if let result, result.value != .expected(for: "forest") {
            Bugs.wrongThumbnail.record(
                "thumbnail(for: \"forest\") did not return the thumbnail of \"forest\": \(result).")
        }
    }

    func cacheManyCallers(_ progress: ScenarioProgress) async {
        let service = ThumbnailService()
        let cache = ThumbnailCache(service: service)
        let wrong = Locked<[String]>([])
        let callers = startCallersAtEveryPriority { number in
            let id = "photo-\(number)"
            let thumbnail = try? await cache.thumbnail(for: id)
            if thumbnail != .expected(for: id) { wrong.withLock { $0.append(id) } }
        }
        progress.report {
            "\(callers.returned.value) of the \(callers.total) calls to thumbnail(for:), started at once from tasks at every priority, had returned;"
                + " the service had started \(service.started.value) fetch(es) and finished \(service.finished.value)."
        }
        await awaitCallers(callers)
        for id in wrong.withLock({ $0 }) {
            Bugs.wrongThumbnail.record("thumbnail(for: \"\(id)\") did not return the thumbnail of \"\(id)\".")
        }
    }
}
