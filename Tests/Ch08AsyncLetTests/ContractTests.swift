import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch08AsyncLetSolution
#else
    import Ch08AsyncLet
#endif

// Chapter 08's contract, explored on its own: each of the three functions cancelled before
// the call and right after each request starts, each with every one of its requests failing
// (then called again on the same service), and the two requests of fetchOneThumbnail
// answered in both orders, with and without a metadata failure. Each failure names the
// lesson and adds a reproducer.

/// One of the chapter's three functions, as the explorations call it.
private struct Exercise: Sendable {
    let name: String
    /// Whether the function asks one request at a time (the warm-up's loop).
    let isLoop: Bool
    let ids: [String]
    /// The lesson a cancel that is not seen teaches, before the call and during it.
    let ignoresEarlierCancel: Lesson
    let ignoresCancel: Lesson
    let wrong: Lesson
    let neverReturns: Lesson
    let call: @Sendable (ThumbnailService) async throws -> [String]

    /// What the call returns when nothing fails: the ids of the thumbnails and metadata.
    var expected: [String] { ids }
}

/// What a call returned, as a list that is the same for every right fix: the ids of the
/// thumbnails by id, or "image a" and "metadata a".
private let exercises: [Exercise] = [
    Exercise(
        name: "fetchThumbnails(for: [\"a\", \"b\"])", isLoop: true, ids: ["thumbnail a", "thumbnail b"],
        ignoresEarlierCancel: Bugs.cancelledCallStillFetches, ignoresCancel: Bugs.cancelDoesNotReachRequest,
        wrong: Bugs.wrongThumbnails, neverReturns: Bugs.warmUpNeverReturns,
        call: { service in
            let thumbnails = try await fetchThumbnails(for: ["a", "b"], from: service)
            return thumbnails.sorted { $0.key < $1.key }.map { key, value in
                value == .expected(for: key) ? "thumbnail \(key)" : "a wrong thumbnail for \(key)"
            }
        }),
    Exercise(
        name: "fetchOneThumbnail(id: \"a\")", isLoop: false, ids: ["image a", "metadata a"],
        ignoresEarlierCancel: Bugs.ignoresEarlierCancel, ignoresCancel: Bugs.pairIgnoresCancel,
        wrong: Bugs.wrongResult, neverReturns: Bugs.neverFinishes,
        call: { service in described(try await fetchOneThumbnail(id: "a", from: service)) }),
    Exercise(
        name: "fetchOneThumbnailEagerly(id: \"a\")", isLoop: false, ids: ["image a", "metadata a"],
        ignoresEarlierCancel: Bugs.ignoresEarlierCancel, ignoresCancel: Bugs.pairIgnoresCancel,
        wrong: Bugs.wrongResult, neverReturns: Bugs.neverFinishes,
        call: { service in described(try await fetchOneThumbnailEagerly(id: "a", from: service)) }),
]

/// The image and the metadata, as the ids they belong to (or what is wrong with them).
private func described(_ pair: (image: Thumbnail, metadata: ThumbnailMetadata)) -> [String] {
    [
        pair.image == .expected(for: "a") ? "image a" : "a wrong image",
        pair.metadata == .expected(for: "a") ? "metadata a" : "wrong metadata",
    ]
}

/// A service whose request starts are the probe's steps.
private func probedService(_ probe: StepProbe) -> ThumbnailService {
    let service = ThumbnailService()
    service.onRequestStart { request in probe.step("request \(request.kind.rawValue) \"\(request.id)\" starts") }
    return service
}

/// The contract at one cancel point: without a cancel, the right values; with one, a thrown
/// cancel, and no request that started at the cancel or after it runs to the end.
private func cancelKept(_ run: CancelPointRun<[String]>, _ service: ThumbnailService, _ exercise: Exercise)
    -> [Violation]
{
    guard let result = run.outcome else {
        return [Violation(exercise.neverReturns, "\(exercise.name): \(describeOutcome(run.outcome))")]
    }
    let seen = "\(exercise.name): \(describeOutcome(run.outcome))"
    guard let point = run.cancelAfter else {
        return result.value == exercise.expected ? [] : [Violation(exercise.wrong, seen)]
    }
    let lesson = point == 0 ? exercise.ignoresEarlierCancel : exercise.ignoresCancel
    guard case .failure(let error) = result, isCancellation(error) else {
        return [Violation(lesson, "cancelled at point \(point), \(seen)")]
    }
    // Requests that started before the cancel point may have finished; none after it.
    let before = max(point - 1, 0)
    if service.finished.value > before {
        return [
            Violation(
                lesson,
                "cancelled at point \(point), \(exercise.name) threw, but \(service.finished.value) requests ran to the end, "
                    + "and only \(before) had started before the cancel")
        ]
    }
    return []
}

/// The contract at one failure point: the service's error is thrown, nothing is asked for
/// after it (in the loop) or twice (in the pair), and the next call works.
private func failureKept(_ run: FailurePointRun<[String]>, _ exercise: Exercise) -> [Violation] {
    guard let result = run.outcome, let recovery = run.recovery else {
        return [Violation(exercise.neverReturns, "\(exercise.name): \(describeOutcome(run.outcome))")]
    }
    var violations: [Violation] = []
    if let failing = run.failingCall {
        guard case .failure(let error) = result, error is ThumbnailServiceError else {
            let lesson = exercise.isLoop ? Bugs.errorSwallowed : exercise.wrong
            return [Violation(lesson, "call \(failing) failed; \(exercise.name): \(describeOutcome(run.outcome))")]
        }
        if exercise.isLoop, run.calls.count != failing {
            violations.append(
                Violation(
                    Bugs.notOneAfterTheOther,
                    "call \(failing) failed; \(exercise.name) made the calls \(run.calls)"))
        }
    } else if result.value != exercise.expected {
        violations.append(
            Violation(exercise.wrong, "without a failure, \(exercise.name): \(describeOutcome(run.outcome))"))
    }
    if Set(run.calls).count != run.calls.count {
        violations.append(Violation(Bugs.askedTwice, "\(exercise.name) made the calls \(run.calls)"))
    }
    if recovery.value != exercise.expected {
        violations.append(
            Violation(
                exercise.wrong, "\(exercise.name), called again with no failure: \(describeOutcome(run.recovery))"))
    }
    return violations
}

/// A world for one order of answers: the service holding its requests, the call, and what
/// the releases saw.
private final class AnswerWorld: Sendable {
    let service = ThumbnailService(holdingRequests: true)
    let call = Locked<Task<[String], any Error>?>(nil)
    let metadataFails: Bool
    /// How many answers have been let through.
    let answered = Locked(0)
    /// What went wrong while the answers were let through, if anything.
    let broken = Locked<Violation?>(nil)

    init(metadataFails: Bool) {
        self.metadataFails = metadataFails
        if metadataFails { service.fail(.metadata, for: "a") }
    }

    func record(_ violation: Violation) {
        broken.withLock { $0 = $0 ?? violation }
    }
}

private let kinds: [ThumbnailService.RequestKind] = [.image, .metadata]

@Suite("Chapter 08: the contract at every cancel point, every failure point, and in every order of answers")
struct AsyncLetContractTests {
    @Test(
        "Each function, cancelled before the call or as any request starts, throws the cancel and finishes nothing after it",
        .exposesBug(
            Bugs.cancelDoesNotReachRequest, Bugs.cancelledCallStillFetches, Bugs.ignoresEarlierCancel,
            Bugs.pairIgnoresCancel))
    func everyCancelPoint() async {
        for exercise in exercises {
            await exploreCancelPoints(exercise.name, world: probedService, operation: exercise.call) { run, service in
                cancelKept(run, service, exercise)
            }.record()
        }
    }

    @Test(
        "Whichever request fails, each function throws its error, asks for nothing more, and works on the next call",
        .exposesBug(Bugs.errorSwallowed))
    func everyFailurePoint() async {
        for exercise in exercises {
            await exploreFailurePoints(
                exercise.name,
                world: { plan in
                    let service = ThumbnailService()
                    service.failRequests(per: plan)
                    return service
                }, operation: exercise.call
            ) { run, _ in failureKept(run, exercise) }.record()
        }
    }

    @Test(
        "Both requests of one thumbnail are in flight at once; answered in either order, a metadata failure ends the call at once",
        .exposesBug(Bugs.sequential, Bugs.imageOutlivesCall))
    func everyOrderOfAnswers() async {
        for exercise in exercises.dropFirst() {
            for metadataFails in [false, true] {
                let failing = metadataFails ? ", the metadata failing" : ""
                await exploreInterleavings(
                    "\(exercise.name)\(failing)", labels: ["the image is answered", "the metadata is answered"],
                    world: { AnswerWorld(metadataFails: metadataFails) },
                    start: { world in
                        let service = world.service
                        world.call.withLock { $0 = Task { try await exercise.call(service) } }
                        if case .stillSuspended = await withinHangLimit(hangLimit, { await service.inFlight.reach(2) })
                        {
                            world.record(
                                Violation(Bugs.sequential, "\(exercise.name) never had both requests in flight"))
                            service.releaseAll()
                        }
                    },
                    release: { world, index in
                        world.service.admit(kinds[index], id: "a")
                        let first = world.answered.withLock { answered in
                            defer { answered += 1 }
                            return answered == 0
                        }
                        let failed = world.metadataFails && kinds[index] == .metadata
                        guard let call = world.call.withLock({ $0 }) else { return }
                        if first && !failed {
                            // The other request is still held: this one ends, the call waits.
                            _ = await withinHangLimit(hangLimit) { await world.service.inFlight.fall(to: 1) }
                            return
                        }
                        // The last answer, or the metadata failed: the call must end now.
                        if case .stillSuspended = await withinHangLimit(hangLimit, { _ = try? await call.value }) {
                            world.record(
                                Violation(
                                    failed ? Bugs.imageAwaitedFirst : exercise.neverReturns,
                                    "\(failed ? "the metadata failed" : "both requests were answered"); \(exercise.name) was still waiting"
                                ))
                        } else if world.service.inFlight.value > 0 {
                            world.record(
                                Violation(
                                    Bugs.imageOutlivesCall, "\(exercise.name) ended with a request still in flight"))
                        }
                    },
                    check: { world, _ in
                        world.service.releaseAll()
                        if let broken = world.broken.withLock({ $0 }) { return [broken] }
                        guard let call = world.call.withLock({ $0 }) else { return [] }
                        guard case .finished(let result) = await withinHangLimit(hangLimit, { try await call.value })
                        else {
                            return [Violation(exercise.neverReturns, "\(exercise.name): still suspended")]
                        }
                        switch (world.metadataFails, result) {
                        case (false, .success(let values)) where values == exercise.expected: return []
                        case (true, .failure(let error)) where error is ThumbnailServiceError: return []
                        default: return [Violation(exercise.wrong, "\(exercise.name): \(describeOutcome(result))")]
                        }
                    }
                ).record()
            }
        }
    }
}
