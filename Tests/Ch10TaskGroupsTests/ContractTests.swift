import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch10TaskGroupsSolution
#else
    import Ch10TaskGroups
#endif

// Chapter 10's contract ("Your task"), explored on its own: every order in which held
// requests can be answered, a cancel after every request start, and a failure of every
// request followed by a call that must work again. Each failure names the lesson and adds a
// reproducer: the release order, the cancel point or the failing call.

private let ids = ["a", "b", "c"]

/// The thumbnails in an album once `fillAlbum` is over: a value, so it can leave the task.
private struct AlbumContents: Sendable, Equatable, CustomStringConvertible {
    let thumbnails: [String: Thumbnail]
    let overlappingSaves: Int

    var description: String { "an album of [\(thumbnails.keys.sorted().joined(separator: ", "))]" }
}

/// Fills a fresh album (each run gets its own), and returns what ended up in it.
private func fillFreshAlbum(with ids: [String], from service: ThumbnailService) async throws -> AlbumContents {
    let album = ThumbnailAlbum()
    try await fillAlbum(album, with: ids, from: service)
    return AlbumContents(thumbnails: album.thumbnails, overlappingSaves: album.overlappingSaves)
}

/// One function of the chapter, as the explorations call it.
private struct Subject<Value: Sendable & Equatable>: Sendable {
    let name: String
    let call: @Sendable ([String], ThumbnailService) async throws -> Value
    /// What the call gives for `ids` when nothing fails and nothing is cancelled.
    let expected: @Sendable ([String]) -> Value
    /// Whether a caller that is already cancelled is promised that no request starts.
    let startsNothingWhenCancelled: Bool
}

private let fetchAll = Subject(
    name: "fetchAllThumbnails(for:from:)", call: { try await fetchAllThumbnails(for: $0, from: $1) },
    expected: expectedThumbnails, startsNothingWhenCancelled: true)
private let fetchInWindow = Subject(
    name: "fetchAllThumbnails(for:from:maxInFlight: 2)",
    call: { try await fetchAllThumbnails(for: $0, from: $1, maxInFlight: 2) }, expected: expectedThumbnails,
    startsNothingWhenCancelled: false)
private let fill = Subject(
    name: "fillAlbum", call: fillFreshAlbum,
    expected: { AlbumContents(thumbnails: expectedThumbnails($0), overlappingSaves: 0) },
    startsNothingWhenCancelled: false)

/// How a call ended, for a failure message: the ids it returned, the mirror, the album, or the error.
private func describe<Value>(_ result: Result<Value, any Error>) -> String {
    switch result {
    case .success(let thumbnail as Thumbnail): "it returned the thumbnail of \"\(thumbnail.id)\""
    case .success(let album as AlbumContents): "it left \(album)"
    default: outcome(result)
    }
}

/// The id of a request the service describes as `image "b"`.
private func requestedId(_ label: String) -> String {
    label.split(separator: "\"").dropFirst().first.map(String.init) ?? label
}

/// A held service, the call under test, and what the test saw while it released requests.
private final class HeldWorld<Value: Sendable>: Sendable {
    let service = ThumbnailService(holdingRequests: true)
    let call = Locked<Task<Value, any Error>?>(nil)
    /// How the call ended, once the test has seen it end.
    let result = Locked<Result<Value, any Error>?>(nil)
    /// Requests in flight and cancelled when the call ended.
    let atReturn = Locked<(inFlight: Int, cancelled: Int)?>(nil)
    let released = Locked(0)
    let violations = Locked<[Violation]>([])
    /// Whether this order is skipped, because an earlier order already broke a promise.
    let skipped: Bool

    init(skipped: Bool) { self.skipped = skipped }

    func start(_ operation: @escaping @Sendable (ThumbnailService) async throws -> Value) {
        let service = service
        call.withLock { $0 = Task { try await operation(service) } }
    }

    /// Waits for `count` requests in flight; notes `lesson` and lets everything through if they never are.
    func awaitInFlight(_ count: Int, orNote lesson: Lesson) async {
        let service = service
        guard case .finished = await withinHangLimit(hangLimit, { await service.inFlight.reach(count) }) else {
            return fail(
                Violation(lesson, "only \(service.inFlight.value) of \(count) requests were ever in flight at once"))
        }
    }

    /// Waits for the call to end (within the hang limit) and keeps how it ended.
    func awaitCall(orNote lesson: Lesson = Bugs.neverReturns) async {
        guard result.withLock({ $0 }) == nil, let task = call.withLock({ $0 }) else { return }
        guard case .finished(let ended) = await withinHangLimit(hangLimit, { try await task.value }) else {
            return fail(Violation(lesson, "the call had not returned \(hangLimit) later"))
        }
        atReturn.withLock { $0 = (service.inFlight.value, service.cancelled.value) }
        result.withLock { $0 = ended }
    }

    /// Notes a broken promise, and lets every held request through so that nothing waits on it.
    func fail(_ violation: Violation) {
        violations.withLock { $0.append(violation) }
        service.releaseAll()
    }

    /// Lets the held request for `id` through, unless a promise is already broken; returns
    /// how many requests have been let through so far.
    func letThrough(_ id: String) -> Int? {
        guard !failed else { return nil }
        let answered = released.withLock {
            $0 += 1
            return $0
        }
        service.admit(.image, id: id)
        return answered
    }

    var failed: Bool { !violations.withLock(\.isEmpty) }
}

/// Interleavings over held worlds, which stop trying orders once one has broken a promise: on
/// a wrong fix, every later order would wait out the hang limit again to show the same thing.
private func exploreHeldOrders<Value: Sendable>(
    _ scenario: String, labels: [String],
    start: (HeldWorld<Value>) async -> Void,
    release: (HeldWorld<Value>, Int) async -> Void,
    orders: [[Int]]? = nil,
    check: (HeldWorld<Value>, [Int]) async -> [Violation]
) async -> ExplorationReport {
    let broken = Locked(false)
    return await exploreInterleavings(
        scenario, labels: labels, world: { HeldWorld<Value>(skipped: broken.withLock { $0 }) },
        start: { world in if !world.skipped { await start(world) } },
        release: { world, index in if !world.skipped { await release(world, index) } },
        orders: orders
    ) { world, order in
        guard !world.skipped else { return [] }
        let violations = await check(world, order)
        if !violations.isEmpty { broken.withLock { $0 = true } }
        return violations
    }
}

/// Every order in which `ids`' held requests can be answered, for a call that starts them all at once.
private func exploreAnswerOrders<Value: Sendable & Equatable>(
    _ subject: Subject<Value>
) async -> ExplorationReport {
    await exploreHeldOrders(
        "\(subject.name) of \(ids)", labels: ids.map { "the request for \"\($0)\" is answered" },
        start: { world in
            world.start { try await subject.call(ids, $0) }
            await world.awaitInFlight(ids.count, orNote: Bugs.notConcurrent)
        },
        release: { world, index in
            guard let answered = world.letThrough(ids[index]) else { return }
            let service = world.service
            if case .stillSuspended = await withinHangLimit(hangLimit, { await service.finished.reach(answered) }) {
                world.fail(
                    Violation(Bugs.neverReturns, "the request for \"\(ids[index])\" was let through and never finished")
                )
            }
        }
    ) { world, _ in
        await world.awaitCall()
        var violations = world.violations.withLock { $0 }
        guard let result = world.result.withLock({ $0 }) else { return violations }
        if let album = result.value as? AlbumContents {
            if album.overlappingSaves > 0 {
                violations.append(Violation(Bugs.childrenShareTheAlbum, "\(album.overlappingSaves) saves overlapped"))
            }
            if album.thumbnails != expectedThumbnails(ids) {
                violations.append(Violation(Bugs.thumbnailLost, "\(subject.name): \(describe(result))"))
            }
        } else if result.value != subject.expected(ids) {
            violations.append(Violation(Bugs.wrongThumbnails, "\(subject.name): \(describe(result))"))
        }
        if world.service.cancelled.value > 0 {
            violations.append(
                Violation(Bugs.cancelledWithoutReason, "\(world.service.cancelled.value) requests saw a cancel"))
        }
        if world.service.startedRequests.map(\.id).sorted() != ids {
            violations.append(
                Violation(Bugs.requestedTwice, "the requests that started were \(startedIds(world.service))"))
        }
        return violations
    }
}

/// The orders in which a window of `width` over `count` ids can answer its requests: the
/// request answered k-th (from 0) must be among the first k + width ids.
private func windowOrders(count: Int, width: Int) -> [[Int]] {
    permutations(of: count).filter { order in order.enumerated().allSatisfy { $0.element < $0.offset + width } }
}

/// Every order in which a sliding window's in-flight requests can be answered.
private func exploreWindowOrders(_ ids: [String], width: Int) async -> ExplorationReport {
    await exploreHeldOrders(
        "fetchAllThumbnails(for: \(ids), from:maxInFlight: \(width))",
        labels: ids.map { "the request for \"\($0)\" is answered" },
        start: { world in
            world.start { try await fetchAllThumbnails(for: ids, from: $0, maxInFlight: width) }
            await world.awaitInFlight(min(width, ids.count), orNote: Bugs.windowNeverFull)
            await windowHolds(world, ids, answered: 0, width: width)
        },
        release: { world, index in
            guard let answered = world.letThrough(ids[index]) else { return }
            let service = world.service
            let started = min(answered + width, ids.count)
            let moved = await withinHangLimit(hangLimit) {
                await service.finished.reach(answered)
                await service.started.reach(started)
            }
            guard case .finished = moved else {
                return world.fail(
                    Violation(
                        Bugs.windowNotSliding,
                        "after \(answered) request(s) were answered, only \(service.started.value) had started, \(startedIds(service)), where \(started) should have"
                    ))
            }
            await windowHolds(world, ids, answered: answered, width: width)
        },
        orders: windowOrders(count: ids.count, width: width)
    ) { world, _ in
        await world.awaitCall()
        var violations = world.violations.withLock { $0 }
        guard let result = world.result.withLock({ $0 }) else { return violations }
        if result.value != expectedThumbnails(ids) {
            violations.append(Violation(Bugs.wrongThumbnails, "it \(describe(result))"))
        }
        if world.service.inFlight.peak > width {
            violations.append(
                Violation(Bugs.windowTooWide, "\(world.service.inFlight.peak) requests were in flight at once"))
        }
        return violations
    }
}

/// Once `answered` requests are answered, the window has started exactly the first
/// `answered + width` ids (in any order), and the count in flight settles at the width (or at
/// what is left). A request counts as finished just before it stops counting as in flight,
/// and as started just before it counts as in flight, so the count is awaited, not read.
private func windowHolds(
    _ world: HeldWorld<[String: Thumbnail]>, _ ids: [String], answered: Int, width: Int
) async {
    guard !world.failed else { return }
    let front = Array(ids.prefix(answered + width))
    let started = world.service.startedRequests.map(\.id)
    guard started.sorted() == front.sorted() else {
        return world.fail(
            Violation(
                Bugs.requestedOutOfOrder,
                "after \(answered) request(s) were answered, the requests that had started were \(startedIds(world.service)), where \(front) should have"
            ))
    }
    let (inFlight, due) = (world.service.inFlight, min(width, ids.count - answered))
    let settled = await withinHangLimit(hangLimit) {
        await inFlight.fall(to: due)
        await inFlight.reach(due)
    }
    if case .stillSuspended = settled {
        world.fail(
            Violation(
                due < inFlight.value ? Bugs.windowTooWide : Bugs.windowNeverFull,
                "after \(answered) request(s) were answered, \(inFlight.value) were in flight, where \(due) should have been"
            ))
    }
}

/// Every order in which the mirrors can answer: the first to answer wins, its failure too.
private func exploreMirrorOrders(firstFails: Bool) async -> ExplorationReport {
    let mirrors = ["m1", "m2", "m3"]
    return await exploreHeldOrders(
        "fetchFirstThumbnail(amongMirrors: \(mirrors))\(firstFails ? ", the first to answer failing" : "")",
        labels: mirrors.map { "mirror \"\($0)\" answers" },
        start: { world in
            world.start { try await fetchFirstThumbnail(amongMirrors: mirrors, from: $0) }
            await world.awaitInFlight(mirrors.count, orNote: Bugs.notConcurrent)
        },
        release: { world, index in
            guard !world.failed,
                world.released.withLock({
                    $0 += 1
                    return $0
                }) == 1
            else { return }
            if firstFails { world.service.fail(.image, for: mirrors[index]) }
            world.service.admit(.image, id: mirrors[index])
            await world.awaitCall(orNote: Bugs.losersNotCancelled)
        }
    ) { world, order in
        await world.awaitCall()
        var violations = world.violations.withLock { $0 }
        guard let result = world.result.withLock({ $0 }), let (inFlight, cancelled) = world.atReturn.withLock({ $0 })
        else { return violations }
        let first = mirrors[order[0]]
        if firstFails {
            if result.error as? ThumbnailServiceError != .injectedFailure(id: first, request: .image) {
                violations.append(
                    Violation(
                        Bugs.errorDropped,
                        "mirror \"\(first)\" answered first, with a failure, and \(describe(result))"))
            }
        } else if result.value != .expected(for: first) {
            violations.append(
                Violation(Bugs.wrongThumbnails, "mirror \"\(first)\" answered first, and \(describe(result))"))
        }
        if inFlight != 0 || cancelled != mirrors.count - 1 {
            violations.append(
                Violation(
                    Bugs.losersNotCancelled,
                    "when it returned, \(cancelled) of the \(mirrors.count - 1) slower mirrors had seen a cancel and \(inFlight) requests were still in flight"
                ))
        }
        return violations
    }
}

/// A service whose request starts are the probe's steps, answering at once.
private func probedService(_ probe: StepProbe) -> ThumbnailService {
    let service = ThumbnailService()
    service.onRequestStart { probe.step("request for \"\($0.id)\" starts") }
    return service
}

/// Cancelled before the call or at any request start: the call throws a cancel, every
/// request that starts after the cancel sees it, and nothing is in flight once it returns.
private func cancelPoints<Value: Sendable & Equatable>(_ subject: Subject<Value>) async -> ExplorationReport {
    await exploreCancelPoints(
        "\(subject.name) of \(ids)", world: probedService, operation: { try await subject.call(ids, $0) }
    ) { run, service in
        guard let result = run.outcome else { return [Violation(Bugs.neverReturns, describeOutcome(run.outcome))] }
        guard let point = run.cancelAfter else {
            return result.value == subject.expected(ids)
                ? [] : [Violation(Bugs.wrongThumbnails, "without a cancel, \(describe(result))")]
        }
        var violations: [Violation] = []
        if !threwCancel(result) {
            violations.append(Violation(Bugs.callerCancelNotPassedOn, "\(subject.name): \(describe(result))"))
        }
        violations += requestsSawTheCancel(after: point, on: service, orElse: Bugs.callerCancelNotPassedOn)
        if point == 0, subject.startsNothingWhenCancelled, service.started.value > 0 {
            violations.append(
                Violation(Bugs.startedWhileCancelled, "called in a cancelled task, it started \(startedIds(service))"))
        }
        return violations
    }
}

/// After a cancel before the call (`point` 0), no request finished; after a cancel right after
/// step `point` (a request start), the request that started at that step saw the cancel, so
/// not every request finished; and once the call is over, none is in flight (else `lesson`).
///
/// Requests that start on other threads while the cancel is being made may or may not see
/// it: the probe numbers their starts, but can't tell which side of the cancel they fell on.
/// So only the request at the cancel point (cancelled on its own thread, before its check) and
/// a cancel before the call are certain.
private func requestsSawTheCancel(after point: Int?, on service: ThumbnailService, orElse lesson: Lesson)
    -> [Violation]
{
    var violations: [Violation] = []
    if point == 0, service.finished.value > 0 {
        violations.append(
            Violation(
                Bugs.callerCancelNotPassedOn,
                "\(service.finished.value) requests finished, though the caller was cancelled before the call"))
    } else if let point, point > 0, service.started.value > 0, service.finished.value >= service.started.value {
        violations.append(
            Violation(
                Bugs.callerCancelNotPassedOn,
                "all \(service.started.value) requests finished, the one that started as the caller was cancelled included"
            ))
    }
    if service.inFlight.value != 0 {
        violations.append(Violation(lesson, "\(service.inFlight.value) requests were in flight after it returned"))
    }
    return violations
}

/// Whichever request fails: the call throws that request's error, and called again, it works.
private func failurePoints<Value: Sendable & Equatable>(_ subject: Subject<Value>, _ ids: [String])
    async -> ExplorationReport
{
    await exploreFailurePoints(
        "\(subject.name) of \(ids)",
        world: { plan in
            let service = ThumbnailService()
            service.failRequests(per: plan)
            return service
        },
        operation: { try await subject.call(ids, $0) }
    ) { run, service in
        guard let result = run.outcome, let recovery = run.recovery else {
            return [Violation(Bugs.neverReturns, describeOutcome(run.outcome))]
        }
        var violations: [Violation] = []
        if let failed = run.failedCall {
            let thrown = ThumbnailServiceError.injectedFailure(id: requestedId(failed), request: .image)
            if result.error as? ThumbnailServiceError != thrown {
                violations.append(
                    Violation(Bugs.errorDropped, "the request \(failed) failed, and \(describe(result))"))
            }
        } else if result.value != subject.expected(ids) {
            violations.append(Violation(Bugs.wrongThumbnails, "without a failure, \(describe(result))"))
        }
        if recovery.value != subject.expected(ids) {
            violations.append(
                Violation(Bugs.wrongThumbnails, "called again with no failure, \(describe(recovery))"))
        }
        if service.inFlight.value != 0 {
            violations.append(
                Violation(
                    Bugs.siblingsNotCancelled, "\(service.inFlight.value) requests were in flight after it returned"))
        }
        return violations
    }
}

extension Result {
    fileprivate var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

@Suite("Chapter 10: the contract in every order, at every cancel point and every failure point")
struct TaskGroupsContractTests {
    @Test(
        "fetchAllThumbnails and fillAlbum, whatever order the requests are answered in, give every thumbnail and cancel nothing",
        .exposesBug(Bugs.childrenShareTheAlbum, Bugs.thumbnailLost))
    func everyAnswerOrder() async {
        await exploreAnswerOrders(fetchAll).record()
        await exploreAnswerOrders(fill).record()
    }

    @Test(
        "fetchFirstThumbnail, whichever mirror answers first, returns its answer or its error and cancels the others",
        .exposesBug(Bugs.losersNotCancelled))
    func everyMirrorOrder() async {
        await exploreMirrorOrders(firstFails: false).record()
        await exploreMirrorOrders(firstFails: true).record()
    }

    @Test(
        "The sliding window, whatever order its requests are answered in, keeps exactly maxInFlight in flight (1, 2, or more than the ids)",
        .exposesBug(Bugs.windowNeverFull))
    func everyWindowOrder() async {
        await exploreWindowOrders(["a", "b", "c", "d"], width: 2).record()
        await exploreWindowOrders(["a", "b", "c"], width: 1).record()
        await exploreWindowOrders(["a", "b", "c"], width: 4).record()
    }

    @Test(
        "Cancelled before the call or at any request start, each function throws a cancel, and its requests see it",
        .exposesBug(Bugs.callerCancelNotPassedOn, Bugs.startedWhileCancelled))
    func everyCancelPoint() async {
        await cancelPoints(fetchAll).record()
        await cancelPoints(fetchInWindow).record()
        await exploreFirstMirrorCancelPoints().record()
    }

    @Test("Whichever request fails, each function throws its error, and called again, it works")
    func everyFailurePoint() async {
        await failurePoints(fetchAll, ids).record()
        await failurePoints(fetchInWindow, ["a", "b", "c", "d"]).record()
    }
}

/// fetchFirstThumbnail cancelled before the call or at any request start: it throws a cancel
/// or returns a mirror's thumbnail that arrived before the cancel (the reading leaves that
/// open), no request that starts after the cancel finishes, and nothing is in flight after.
private func exploreFirstMirrorCancelPoints() async -> ExplorationReport {
    let mirrors = ["m1", "m2"]
    return await exploreCancelPoints(
        "fetchFirstThumbnail(amongMirrors: \(mirrors))", world: probedService,
        operation: { try await fetchFirstThumbnail(amongMirrors: mirrors, from: $0) }
    ) { run, service in
        guard let result = run.outcome else { return [Violation(Bugs.neverReturns, describeOutcome(run.outcome))] }
        let answered = mirrors.map { Thumbnail.expected(for: $0) }
        let allowed = (run.isBaseline ? false : threwCancel(result)) || result.value.map(answered.contains) == true
        var violations: [Violation] = []
        if !allowed {
            violations.append(Violation(Bugs.callerCancelNotPassedOn, "fetchFirstThumbnail \(describe(result))"))
        }
        violations += requestsSawTheCancel(after: run.cancelAfter, on: service, orElse: Bugs.losersNotCancelled)
        return violations
    }
}
