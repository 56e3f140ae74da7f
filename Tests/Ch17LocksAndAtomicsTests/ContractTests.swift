import Foundation
import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch17LocksAndAtomicsSolution
#else
    import Ch17LocksAndAtomics
#endif

// Chapter 17's contract ("Your task"), explored on its own, in child processes like every
// scenario of this chapter: sequences of calls one after the other against a tiny model of
// the cache and of the counters (fixed seeds, shrunk on failure), every failure point of a
// few fetches with a call again after it, and every order in which overlapping fetches can
// be answered, with a synchronous lookup between any two answers.

@Suite("Chapter 17: the contract, one call after another, at every failure point and in every order")
struct LocksAndAtomicsContractTests {
    @Test("ThumbnailCache and FeedMetrics, one call after another, do what a tiny model of their contract does")
    func againstTheirModels() async {
        await Scenario.contractModels.runInChildProcess()
    }

    @Test(
        "Whichever fetch fails, or wherever the caller is cancelled, thumbnail(for:) keeps nothing wrong and works again"
    )
    func everyFailurePoint() async {
        await Scenario.contractFailurePoints.runInChildProcess()
    }

    @Test(
        "Overlapping fetches, answered in every order: each caller gets its thumbnail, and a lookup never waits",
        .exposesBug(Bugs.cacheBlocksPool))
    func everyAnswerOrder() async {
        await Scenario.contractAnswerOrders.runInChildProcess()
    }
}

// MARK: - One call after another

/// One call to the cache: `thumbnail(for:)` (the service answering it or failing) or
/// `cachedThumbnail(for:)`.
private enum CacheCall: Sendable, CustomStringConvertible {
    case thumbnail(String, failing: Bool)
    case cached(String)

    var description: String {
        switch self {
        case .thumbnail(let id, let failing): "thumbnail(for: \"\(id)\")\(failing ? ", the fetch failing" : "")"
        case .cached(let id): "cachedThumbnail(for: \"\(id)\")"
        }
    }
}

private let cacheModel = ModelCheck<CacheCall, String>(
    "ThumbnailCache", lesson: Bugs.cacheBreaksContract,
    generate: { random in
        let id = random.pick(["a", "b"])
        return random.below(3) == 0 ? .cached(id) : .thumbnail(id, failing: random.below(3) == 0)
    },
    simplify: { call in
        guard case .thumbnail(let id, true) = call else { return [] }
        return [.thumbnail(id, failing: false)]
    },
    real: { calls in
        let service = ThumbnailService()
        let cache = ThumbnailCache(service: service)
        var observed: [String] = []
        for call in calls {
            switch call {
            case .cached(let id):
                let kept = await onPlainThread(
                    orRecord: Bugs.lookupWaitsForFetch,
                    "cachedThumbnail(for: \"\(id)\") never returned, with no fetch running"
                ) { cache.cachedThumbnail(for: id) }
                observed.append(kept.map { describeKept($0, id) } ?? "still waiting")
            case .thumbnail(let id, let failing):
                service.failRequests(per: FailurePlan(failingCall: failing ? 1 : nil))
                let before = service.started.value
                let outcome = await withinHangLimit(hangLimit) { try await cache.thumbnail(for: id) }
                let asked = service.started.value > before ? "fetched" : "from the cache"
                switch outcome {
                case .finished(.success(let thumbnail)) where thumbnail == .expected(for: id):
                    observed.append("its thumbnail, \(asked)")
                case .finished(.success(let thumbnail)):
                    observed.append("the thumbnail of \"\(thumbnail.id)\", \(asked)")
                case .finished(.failure(is ThumbnailServiceError)): observed.append("the service's error, \(asked)")
                case .finished(.failure(let error)): observed.append("\(describeThrown(error)), \(asked)")
                case .stillSuspended: observed.append("still waiting")
                }
            }
        }
        return observed
    },
    model: { calls in
        var kept: Set<String> = []
        return calls.map { call in
            switch call {
            case .cached(let id): return kept.contains(id) ? "its thumbnail" : "nil"
            case .thumbnail(let id, _) where kept.contains(id): return "its thumbnail, from the cache"
            case .thumbnail(_, failing: true): return "the service's error, fetched"
            case .thumbnail(let id, failing: false):
                kept.insert(id)
                return "its thumbnail, fetched"
            }
        }
    })

/// What `cachedThumbnail(for: id)` returned, for the comparison with the model.
private func describeKept(_ thumbnail: Thumbnail?, _ id: String) -> String {
    guard let thumbnail else { return "nil" }
    return thumbnail == .expected(for: id) ? "its thumbnail" : "the thumbnail of \"\(thumbnail.id)\""
}

/// One call to the counters.
private enum MetricsCall: String, Sendable, CustomStringConvertible {
    case hit = "recordHit()"
    case miss = "recordMiss()"
    case snapshot

    var description: String { rawValue }
}

private let metricsModel = ModelCheck<MetricsCall, String>(
    "FeedMetrics", lesson: Bugs.wrongCounts, length: 10,
    generate: { random in random.pick([.hit, .hit, .miss, .snapshot]) },
    real: { calls in
        let metrics = FeedMetrics()
        return calls.map { call in
            switch call {
            case .hit: metrics.recordHit()
            case .miss: metrics.recordMiss()
            case .snapshot: return "\(metrics.snapshot)"
            }
            return "recorded"
        }
    },
    model: { calls in
        var counts = FeedMetrics.Snapshot()
        return calls.map { call in
            switch call {
            case .hit: counts.hits += 1
            case .miss: counts.misses += 1
            case .snapshot: return "\(counts)"
            }
            return "recorded"
        }
    })

extension Bugs {
    static let cacheBreaksContract = ChapterReading("17-LocksAndAtomics").lesson(
        "the cache did not do what its contract says, one call after another",
        "with one call at a time, thumbnail(for:) fetches an id only if no earlier call kept it, keeps what it fetched, and throws the service's error (keeping nothing) when the fetch fails; cachedThumbnail(for:) returns what is kept, or nil",
        section: "The feed's cache and counters")
}

// MARK: - Every failure point, every cancel point, every order

/// `thumbnail(for: "a")` cancelled before the call or as its fetch starts: it throws a cancel
/// (`CancellationError` or the fetch's `URLError(.cancelled)`) or returns the thumbnail (the
/// contract leaves it open); the cache never keeps anything wrong, and the next call gets it.
private func cancelPoints() async -> ExplorationReport {
    await exploreCancelPoints(
        "thumbnail(for: \"a\"), then thumbnail(for: \"a\") again",
        world: { probe in
            let service = ThumbnailService()
            service.onRequestStart { probe.step("the fetch of \"\($0.id)\" starts") }
            return ThumbnailCache(service: service)
        },
        operation: { try await $0.thumbnail(for: "a") }
    ) { run, cache in
        var violations: [Violation] = []
        switch run.outcome {
        case .success(let thumbnail)? where thumbnail == .expected(for: "a"): break
        case .failure(let error)? where !run.isBaseline && isCancel(error): break
        default:
            violations.append(Violation(Bugs.wrongThumbnail, "thumbnail(for: \"a\") \(describeOutcome(run.outcome))"))
        }
        if let kept = cache.cachedThumbnail(for: "a"), kept != .expected(for: "a") {
            violations.append(
                Violation(Bugs.wrongThumbnail, "the cache kept the thumbnail of \"\(kept.id)\" for \"a\""))
        }
        let next = await withinHangLimit(hangLimit) { try await cache.thumbnail(for: "a") }
        if case .finished(.success(let thumbnail)) = next, thumbnail == .expected(for: "a") { return violations }
        violations.append(
            Violation(Bugs.failureHidden, "after the cancel, the next thumbnail(for: \"a\") got no thumbnail"))
        return violations
    }
}

/// Whether `error` reports a cancel, in either form.
private func isCancel(_ error: any Error) -> Bool {
    error is CancellationError || (error as? URLError)?.code == .cancelled
}

/// The three fetches of `thumbnail(for:)` of "a", "b", "c", one after the other.
private let fetchIds = ["a", "b", "c"]

extension Scenario {
    func contractModels(_ progress: ScenarioProgress) async {
        progress.report { "The cache and the counters were running sequences of calls, one call at a time." }
        await cacheModel.explore().record()
        await metricsModel.explore().record()
    }

    func contractFailurePoints(_ progress: ScenarioProgress) async {
        progress.report { "thumbnail(for:) was running, one fetch failing or its caller cancelled." }
        let report = await exploreFailurePoints(
            "thumbnail(for:) of \(fetchIds), one after the other",
            world: { plan in
                let service = ThumbnailService()
                service.failRequests(per: plan)
                return (service, ThumbnailCache(service: service))
            },
            operation: { world in
                var thumbnails: [Thumbnail] = []
                for id in fetchIds { thumbnails.append(try await world.1.thumbnail(for: id)) }
                return thumbnails
            }
        ) { run, world in
            guard let result = run.outcome, let recovery = run.recovery else {
                return [Violation(Bugs.neverReturns, describeOutcome(run.outcome))]
            }
            var violations: [Violation] = []
            let expected = fetchIds.map { Thumbnail.expected(for: $0) }
            if run.failingCall != nil {
                if !(result.isFailure(ThumbnailServiceError.self)) {
                    violations.append(
                        Violation(Bugs.failureHidden, "a fetch failed, and the calls \(describeOutcome(result))"))
                }
            } else if result.value != expected {
                violations.append(
                    Violation(Bugs.wrongThumbnail, "without a failure, the calls \(describeOutcome(result))"))
            }
            if recovery.value != expected {
                violations.append(
                    Violation(
                        Bugs.failureHidden, "called again with no failure, the calls \(describeOutcome(recovery))"))
            }
            // Everything is fetched once, except the one that failed, fetched again.
            let fetches = world.0.started.value
            let due = fetchIds.count + (run.failingCall == nil ? 0 : 1)
            if fetches != due {
                violations.append(
                    Violation(Bugs.fetchedAgain, "the service was asked \(fetches) times where \(due) fetches were due")
                )
            }
            return violations
        }
        report.record()
        await cancelPoints().record()
    }

    func contractAnswerOrders(_ progress: ScenarioProgress) async {
        progress.report { "Overlapping calls of thumbnail(for:) for \(fetchIds) were waiting for held fetches." }
        let report = await exploreInterleavings(
            "thumbnail(for:) of \(fetchIds), all at once",
            labels: fetchIds.map { "the fetch of \"\($0)\" is answered" },
            world: AnswerWorld.init,
            start: { world in
                world.start()
                let started = world.service.started
                if case .stillSuspended = await withinHangLimit(hangLimit, { await started.reach(fetchIds.count) }) {
                    world.note(
                        Violation(
                            Bugs.cacheBlocksPool,
                            "only \(started.value) of \(fetchIds.count) fetches started while the others were held"))
                }
            },
            release: { world, index in await world.answer(index) }
        ) { world, _ in
            var violations = world.violations.withLock { $0 }
            guard violations.isEmpty else { return violations }
            for (index, id) in fetchIds.enumerated() {
                let caller = world.callers.withLock { $0[index] }
                guard case .finished(let result) = await withinHangLimit(hangLimit, { try await caller.value }) else {
                    violations.append(Violation(Bugs.neverReturns, "thumbnail(for: \"\(id)\") never returned"))
                    continue
                }
                if result.value != .expected(for: id) {
                    violations.append(
                        Violation(Bugs.wrongThumbnail, "thumbnail(for: \"\(id)\") \(describeOutcome(result))"))
                }
            }
            return violations
        }
        report.record()
    }
}

/// A held service, a cache over it, and one caller per id.
private final class AnswerWorld: Sendable {
    let service = ThumbnailService(holdingRequests: true)
    let cache: ThumbnailCache
    let callers = Locked<[Task<Thumbnail, any Error>]>([])
    let answered = Locked<[String]>([])
    let violations = Locked<[Violation]>([])

    init() { cache = ThumbnailCache(service: service) }

    func start() {
        let cache = cache
        callers.withLock { callers in
            callers = fetchIds.map { id in Task { try await cache.thumbnail(for: id) } }
        }
    }

    func note(_ violation: Violation) {
        violations.withLock { $0.append(violation) }
        service.releaseAll()
    }

    /// Answers the fetch of `fetchIds[index]`, waits for its caller, then looks every id up
    /// synchronously, on a plain thread, while the others are still held: the answered ones
    /// must be kept, the others not yet, and no lookup may wait.
    func answer(_ index: Int) async {
        guard violations.withLock(\.isEmpty) else { return }
        let id = fetchIds[index]
        service.admit(.image, id: id)
        let caller = callers.withLock { $0[index] }
        guard case .finished = await withinHangLimit(hangLimit, { try await caller.value }) else {
            return note(
                Violation(Bugs.neverReturns, "thumbnail(for: \"\(id)\") never returned once its fetch was answered"))
        }
        let done = answered.withLock {
            $0.append(id)
            return $0
        }
        let cache = cache
        let held = fetchIds.filter { !done.contains($0) }
        guard
            let kept = await onPlainThread(
                orRecord: Bugs.lookupWaitsForFetch,
                "After the fetches of \(done) were answered, a synchronous lookup waited while \(held) were still held.",
                { fetchIds.map { cache.cachedThumbnail(for: $0) } })
        else { return note(Violation(Bugs.lookupWaitsForFetch, "a lookup waited for the held fetches of \(held)")) }
        for (id, thumbnail) in zip(fetchIds, kept) where thumbnail != (done.contains(id) ? .expected(for: id) : nil) {
            note(
                Violation(
                    Bugs.wrongThumbnail,
                    "after the fetches of \(done) were answered, cachedThumbnail(for: \"\(id)\") returned \(thumbnail.map { "the thumbnail of \"\($0.id)\"" } ?? "nil")"
                ))
        }
    }
}

extension Result {
    /// Whether this is a failure with an error of type `type`.
    fileprivate func isFailure<E: Error>(_ type: E.Type) -> Bool {
        if case .failure(let error) = self { return error is E }
        return false
    }
}
