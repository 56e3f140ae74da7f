import Foundation
import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch04CompletionHandlersSolution
#else
    import Ch04CompletionHandlers
#endif

// Chapter 04's contract (the reading's "Your task"), explored on its own: every request of a
// pair failing in turn, in each way a request can fail, then the pair again on the same
// loader; four fetches at once; and sequences of fetches from fixed seeds against a model.
// Each fetch must call its handler exactly once, on the main queue, with its own answer,
// after one request.

/// What the service answers, decided by the photo number: 1 the photo, 2 a transport error,
/// 3 status 404, 4 bytes that are not a photo; 5 and up start again (5 the photo, and so on).
enum PhotoAnswer: Int, CaseIterable, Sendable {
    case photo = 1
    case offline, notFound, undecodable

    init(forPhoto number: Int) { self = PhotoAnswer(rawValue: (number - 1) % 4 + 1)! }

    func outcome(_ number: Int) -> PhotoService.Outcome {
        switch self {
        case .photo: .photo(.sample(number))
        case .offline: .failure(.offline)
        case .notFound: .status(404)
        case .undecodable: .undecodableData
        }
    }

    /// The one call the contract gives the handler, as ``describeCall(_:_:)`` writes it.
    func expected(_ number: Int) -> String {
        switch self {
        case .photo: describeCall(.sample(number), nil)
        case .offline: describeCall(nil, PhotoServiceError.offline)
        case .notFound: describeCall(nil, PhotoError.invalidServerResponse)
        case .undecodable: describeCall(nil, PhotoError.undecodableImage)
        }
    }

    /// The lesson a first call with another answer teaches.
    var lesson: Lesson { self == .undecodable ? Bugs.undecodableUnnamed : Bugs.wrongAnswer }
}

/// A handler's call, `(photo, error)`, in words.
func describeCall(_ photo: Photo?, _ error: (any Error)?) -> String {
    "(\(photo.map { "\($0)" } ?? "nil"), \(error.map { "\($0)" } ?? "nil"))"
}

/// How one fetch's handler was called, once every call had the time to arrive.
struct FetchEnd: Sendable, Equatable, CustomStringConvertible {
    /// The first call, in words; "" if there was none.
    let first: String
    let calls: Int
    let allOnMainQueue: Bool

    init(first: String, calls: Int, allOnMainQueue: Bool) {
        self.first = first
        self.calls = calls
        self.allOnMainQueue = allOnMainQueue
    }

    init(_ handler: HandlerCalls) {
        let all = handler.all
        self.init(
            first: all.first.map { describeCall($0.photo, $0.error) } ?? "", calls: all.count,
            allOnMainQueue: all.allSatisfy(\.onMainQueue))
    }

    /// What the contract gives for a fetch the service answers `answer`.
    static func contract(_ answer: PhotoAnswer, _ number: Int) -> FetchEnd {
        FetchEnd(first: answer.expected(number), calls: 1, allOnMainQueue: true)
    }

    var description: String {
        calls == 0
            ? "the handler was never called"
            : allOnMainQueue
                ? "the handler was called \(calls) time(s), first with \(first), always on the main queue"
                : "the handler was called \(calls) time(s), first with \(first), not always on the main queue"
    }
}

/// Starts a fetch of each of `numbers` at once on `loader`; returns their handlers' calls.
private func startFetches(_ numbers: [Int], on loader: PhotoLoader) -> [HandlerCalls] {
    numbers.map { number in
        let handler = HandlerCalls()
        loader.fetchPhoto(url: PhotoService.url(ofPhoto: number)) { photo, error in handler.record(photo, error) }
        return handler
    }
}

/// Waits, bounded, for each handler's first call, then lets any later calls arrive.
private func arrivals(_ handlers: [HandlerCalls]) async -> [FetchEnd] {
    _ = await withinHangLimit(hangLimit) {
        for handler in handlers { await handler.count.reach(1) }
    }
    await letPendingWorkRun { handlers.reduce(0) { $0 + $1.count.value } }
    return handlers.map(FetchEnd.init)
}

/// The promises a fetch of `number` broke, answered `answer`, that ended as `end`.
private func brokenPromises(_ end: FetchEnd, of number: Int, answered answer: PhotoAnswer, in run: String)
    -> [Violation]
{
    let outcome = answer.outcome(number)
    let expected = answer.expected(number)
    let seen = "\(run): fetchPhoto of photo \(number), answered \(outcome): \(end)"
    if end.calls == 0 { return [Violation(Bugs.neverCalled, seen)] }
    var violations: [Violation] = []
    if end.calls > 1 { violations.append(Violation(Bugs.notExactlyOnce, seen)) }
    if !end.allOnMainQueue { violations.append(Violation(Bugs.offMainQueue, seen)) }
    if end.first == describeCall(nil, nil) {
        violations.append(Violation(Bugs.neitherPhotoNorError, seen))
    } else if end.first != answer.expected(number) {
        violations.append(Violation(answer.lesson, seen + "; expected first: \(expected)"))
    }
    return violations
}

/// A loader and its service, whose failing request is answered `failure`.
struct PhotoWorld: Sendable {
    let service: PhotoService
    let loader: PhotoLoader
}

/// Every failure point of two fetches at once, photos 1 and 2, where the failing request is
/// answered `failure` and the other one the photo; then the pair again on the same loader.
///
/// A run waits for both handlers before it ends, so the pair made again starts after it. The
/// two requests of a pair may reach the service in either order (a fix may hop first), so
/// the fetch that failed is the one whose photo the failing request asked for.
private func exploreFailures(answering failure: PhotoAnswer) async {
    let answer = failure.outcome(1)
    let report = await exploreFailurePoints(
        "fetchPhoto of photos 1 and 2 at once, a failing request answered \(answer)",
        world: { plan in
            let service = PhotoService { url in
                let number = photoNumber(url)
                return plan.nextCallFails("photo \(number)") ? failure.outcome(number) : .photo(.sample(number))
            }
            return PhotoWorld(service: service, loader: PhotoLoader(service: service))
        },
        operation: { world in await arrivals(startFetches([1, 2], on: world.loader)) }
    ) { run, world in
        guard case .success(let first)? = run.outcome, case .success(let again)? = run.recovery else {
            return [Violation(Bugs.neverCalled, "the handlers were not all called within \(hangLimit)")]
        }
        let failedPhoto = run.failedCall.flatMap { Int($0.dropFirst("photo ".count)) }
        var violations: [Violation] = []
        for (index, end) in first.enumerated() {
            let number = index + 1
            violations += brokenPromises(
                end, of: number, answered: number == failedPhoto ? failure : .photo, in: "the first pair")
        }
        for (index, end) in again.enumerated() {
            violations += brokenPromises(end, of: index + 1, answered: .photo, in: "the pair again")
        }
        let requests = world.service.requests.value
        if requests > 4 {
            violations.append(Violation(Bugs.asksMoreThanOnce, "4 fetches made \(requests) requests"))
        }
        return violations
    }
    report.record()
}

/// The number of the photo at `url` (see `PhotoService.url(ofPhoto:)`).
private func photoNumber(_ url: URL) -> Int {
    Int(url.deletingPathExtension().lastPathComponent) ?? 0
}

/// One step of a sequence: a fetch of a photo, whose number says what the service answers.
struct Fetch: Sendable, CustomStringConvertible {
    let number: Int
    var description: String {
        let answer = PhotoAnswer(forPhoto: number).outcome(number)
        return "fetch photo \(number) (the service answers \(answer))"
    }
}

/// What a fetch of a sequence showed: how its handler was called, and the requests so far.
struct FetchObservation: Sendable, Equatable, CustomStringConvertible {
    let end: FetchEnd
    let requests: Int
    var description: String { "\(end); \(requests) requests so far" }
}

/// Fetches one after another on one loader, against the contract's model.
private let sequenceCheck = ModelCheck<Fetch, FetchObservation>(
    "PhotoLoader, fetches one after another", lesson: Bugs.sequenceBroken, length: 5,
    generate: { random in Fetch(number: random.below(8) + 1) },
    simplify: { fetch in fetch.number > 4 ? [Fetch(number: fetch.number - 4)] : [] },
    real: { fetches in
        let service = PhotoService { url in
            let number = photoNumber(url)
            return PhotoAnswer(forPhoto: number).outcome(number)
        }
        let loader = PhotoLoader(service: service)
        var observations: [FetchObservation] = []
        for fetch in fetches {
            let end = await arrivals(startFetches([fetch.number], on: loader))[0]
            observations.append(FetchObservation(end: end, requests: service.requests.value))
            if end.calls == 0 { break }
        }
        return observations
    },
    model: { fetches in
        fetches.enumerated().map { index, fetch in
            FetchObservation(
                end: .contract(PhotoAnswer(forPhoto: fetch.number), fetch.number), requests: index + 1)
        }
    })

@Suite("Chapter 04: the contract at every failure point, with overlapping fetches, and on sequences")
struct CompletionHandlersContractTests {
    @Test(
        "Whichever request fails, and however, every handler is called once, on the main queue, with its own answer",
        .exposesBug(Bugs.notExactlyOnce, Bugs.offMainQueue, Bugs.neitherPhotoNorError))
    func everyFailurePoint() async {
        for failure in [PhotoAnswer.offline, .notFound, .undecodable] {
            await exploreFailures(answering: failure)
        }
    }

    @Test(
        "Four fetches at once, and sequences of fetches, each get their own answer, once, on the main queue",
        .exposesBug(Bugs.notExactlyOnce, Bugs.offMainQueue, Bugs.neitherPhotoNorError, Bugs.sequenceBroken))
    func overlappingAndSequences() async {
        let service = PhotoService { url in
            let number = photoNumber(url)
            return PhotoAnswer(forPhoto: number).outcome(number)
        }
        let ends = await arrivals(startFetches([1, 2, 3, 4], on: PhotoLoader(service: service)))
        var violations: [Violation] = []
        for (index, end) in ends.enumerated() {
            let number = index + 1
            violations += brokenPromises(
                end, of: number, answered: PhotoAnswer(forPhoto: number), in: "four fetches at once")
        }
        let requests = service.requests.value
        if requests > 4 {
            violations.append(Violation(Bugs.asksMoreThanOnce, "four fetches at once made \(requests) requests"))
        }
        ExplorationReport(
            instrument: "four fetches at once", scenario: "fetchPhoto of photos 1, 2, 3 and 4", runs: 1,
            findings: violations.map {
                ExplorationFinding($0, reproducer: "Reproducer: fetch photos 1, 2, 3 and 4 at once.")
            }
        ).record()
        await sequenceCheck.explore().record()
    }
}
