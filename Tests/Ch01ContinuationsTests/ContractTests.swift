import Foundation
import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch01ContinuationsSolution
#else
    import Ch01Continuations
#endif

// Chapter 01's contract (the reading's "Your task"), explored on its own: each answer the
// server can give, with the caller cancelled before the call and while it waits; every
// download of a short run failing in turn, each kind of failure, then the run again; four
// downloads at once; and sequences of downloads from fixed seeds against a model.
//
// Every exploration runs in a child process (an exit test): a wrapper that traps, by
// resuming twice say, ends only that child. The child notes each run it starts on standard
// error, so a trap's lesson names the run it happened in.

/// What the server answers, decided by the image number: 1 an image, 2 `notFound`, 3
/// `offline`, 4 neither; 5 and up start again (5 an image, and so on).
enum ServerAnswer: Int, CaseIterable, Sendable, CustomStringConvertible {
    case image = 1
    case notFound, offline, neither

    init(forImage number: Int) { self = ServerAnswer(rawValue: (number - 1) % 4 + 1)! }

    func outcome(_ number: Int) -> ImageServer.Outcome {
        switch self {
        case .image: .image(.sample(number))
        case .notFound: .error(.notFound(imageNumber: number))
        case .offline: .error(.offline)
        case .neither: .neither
        }
    }

    var description: String {
        switch self {
        case .image: "(image, nil)"
        case .notFound: "(nil, ImageServerError.notFound)"
        case .offline: "(nil, ImageServerError.offline)"
        case .neither: "(nil, nil)"
        }
    }

    /// What the contract says a download of `number` ends with.
    func expected(_ number: Int) -> DownloadEnd {
        switch self {
        case .image: .returned(.sample(number))
        case .notFound: .threw("\(ImageServerError.notFound(imageNumber: number))")
        case .offline: .threw("\(ImageServerError.offline)")
        case .neither: .threw("\(ImageDownloadError.missingImageAndError(imageNumber: number))")
        }
    }

    /// The lesson a download that ends any other way teaches.
    var lesson: Lesson {
        self == .neither ? Bugs.neitherPathUnnamed : Bugs.wrongAnswer
    }

    /// The lesson a download that never ends teaches.
    var hangLesson: Lesson {
        switch self {
        case .image, .neither: Bugs.neverResumes
        case .notFound, .offline: Bugs.errorPathNeverResumes
        }
    }
}

/// How one download ended, comparable with the contract's.
enum DownloadEnd: Sendable, Equatable, CustomStringConvertible {
    case returned(DetailedImage)
    case threw(String)
    case suspended

    init(_ outcome: Result<DetailedImage, any Error>?) {
        switch outcome {
        case .success(let image)?: self = .returned(image)
        case .failure(let error)?: self = .threw("\(error)")
        case nil: self = .suspended
        }
    }

    var description: String {
        switch self {
        case .returned(let image): "returned image \(image.number)"
        case .threw(let error): "threw \(error)"
        case .suspended: "still suspended after \(hangLimit)"
        }
    }
}

/// A server that answers by image number (``ServerAnswer``) and reports each request.
private func answeringServer(_ request: @escaping @Sendable (Int) -> Void = { _ in }) -> ImageServer {
    ImageServer { number in
        request(number)
        return ServerAnswer(forImage: number).outcome(number)
    }
}

/// In the child: notes on standard error the run about to start, so that a trap names it.
private func announce(_ run: String) {
    FileHandle.standardError.write(Data("\(runMarker)\(run)\n".utf8))
}

private let runMarker = "[contract run] "

/// In the parent: explains how the child ended, naming the run it was in if it trapped. A
/// force unwrap that found nil is the `(nil, nil)` lesson; anything else is `otherwise`.
private func explainChild(
    _ run: ExitTest.Result?, _ log: CrashLog, otherwise: Lesson, sourceLocation: SourceLocation
) {
    let lines = log.contents.split(separator: "\n")
    let last = lines.last { $0.hasPrefix(runMarker) }.map { String($0.dropFirst(runMarker.count)) }
    let lesson = log.contents.contains("Unexpectedly found nil") ? Bugs.neitherPathCrashes : otherwise
    log.explain(
        run, as: lesson, detail: last.map { "  The process ended during this run: \($0)." },
        sourceLocation: sourceLocation)
}

/// Every cancel point of one download of `number`: before the call (point 0) and right after
/// the request (point 1, while the caller waits). The download must end with the server's
/// answer after exactly one request, or, cancelled, with `CancellationError` after at most one.
private func exploreCancels(of number: Int) async {
    let answer = ServerAnswer(forImage: number)
    let scenario = "downloadImageAndMetadata(imageNumber: \(number)), the server answering \(answer)"
    let runs = Locked(0)
    let report = await exploreCancelPoints(
        scenario,
        world: { probe in
            let run = runs.withLock { runs in
                defer { runs += 1 }
                return runs
            }
            announce("\(scenario), " + (run == 0 ? "without a cancel" : "cancel point \(run - 1)"))
            return answeringServer { number in probe.step("the server is asked for image \(number)") }
        },
        operation: { try await downloadImageAndMetadata(imageNumber: number, from: $0) }
    ) { run, _ in
        let end = DownloadEnd(run.outcome)
        let requests = run.steps.count
        if end == .suspended {
            return [Violation(answer.hangLesson, "the download was \(end)")]
        }
        // The reading leaves it open whether a cancelled caller gets CancellationError.
        var cancelled = false
        if case .failure(let error)? = run.outcome { cancelled = error is CancellationError && !run.isBaseline }
        var violations: [Violation] = []
        let expected = answer.expected(number)
        if !cancelled, end != expected {
            violations.append(Violation(answer.lesson, "the download \(end), expected: \(expected)"))
        }
        if requests > 1 {
            violations.append(Violation(Bugs.asksAgain, "1 download(s) sent \(requests) requests to the server"))
        } else if requests == 0, !cancelled {
            violations.append(Violation(Bugs.wrongAnswer, "the download \(end) without asking the server"))
        }
        return violations
    }
    report.record()
}

/// Every failure point of two downloads in a row, images 1 then 2, where the failing request
/// gets `failure` instead of its image: the download that failed throws the named error,
/// the next one is not made (the scenario stops at the first throw), and the same two
/// downloads made again return both images, one request each.
private func exploreFailures(answering failure: ServerAnswer) async {
    let scenario = "downloadImageAndMetadata of images 1 then 2, a failing request answered \(failure)"
    let report = await exploreFailurePoints(
        scenario,
        world: { plan in
            announce(
                "\(scenario), " + (plan.failingCall.map { "request \($0) failing" } ?? "no request failing"))
            return ImageServer { number in
                plan.nextCallFails("image \(number)") ? failure.outcome(number) : .image(.sample(number))
            }
        },
        operation: { server in
            [
                try await downloadImageAndMetadata(imageNumber: 1, from: server).number,
                try await downloadImageAndMetadata(imageNumber: 2, from: server).number,
            ]
        }
    ) { run, _ in
        guard run.outcome != nil, run.recovery != nil else {
            return [Violation(failure.hangLesson, "the downloads were still suspended after \(hangLimit)")]
        }
        var violations: [Violation] = []
        if let failing = run.failingCall {
            let expected = failure.expected(failing)
            let end = DownloadEnd(run.outcome?.map { DetailedImage.sample($0[failing - 1]) })
            if end != expected {
                violations.append(Violation(failure.lesson, "download \(failing) \(end), expected: \(expected)"))
            }
            if run.calls.count > failing {
                violations.append(
                    Violation(Bugs.asksAgain, "\(failing) download(s) sent \(run.calls.count) requests to the server"))
            }
        } else if (try? run.outcome?.get()) != [1, 2] {
            let outcome = describeOutcome(run.outcome)
            violations.append(
                Violation(
                    Bugs.wrongAnswer, "without a failure: \(outcome), expected images 1 and 2"))
        }
        if (try? run.recovery?.get()) != [1, 2] {
            let recovery = describeOutcome(run.recovery)
            violations.append(
                Violation(
                    Bugs.wrongAnswer,
                    "made again, no request failing: \(recovery), expected images 1 and 2"
                ))
        }
        if run.recoveryCalls.count > 2 {
            violations.append(
                Violation(Bugs.asksAgain, "2 download(s) sent \(run.recoveryCalls.count) requests to the server"))
        }
        return violations
    }
    report.record()
}

/// One step of a sequence: a download of an image, whose number says what the server answers.
struct Download: Sendable, CustomStringConvertible {
    let number: Int
    var description: String {
        let answer = ServerAnswer(forImage: number)
        return "download image \(number) (the server answers \(answer))"
    }
}

/// What one download of a sequence showed: how it ended, and the requests sent so far.
struct DownloadObservation: Sendable, Equatable, CustomStringConvertible {
    let end: DownloadEnd
    let requests: Int
    var description: String { "\(end), \(requests) requests so far" }
}

/// Downloads one after another, on one server, against the contract's model: each ends with
/// its own answer and sends one request, whatever came before (a failure is not replayed).
private let sequenceCheck = ModelCheck<Download, DownloadObservation>(
    "downloads one after another", lesson: Bugs.sequenceBroken, length: 6,
    generate: { random in Download(number: random.below(8) + 1) },
    simplify: { download in download.number > 4 ? [Download(number: download.number - 4)] : [] },
    real: { downloads in
        let server = answeringServer()
        var observations: [DownloadObservation] = []
        for download in downloads {
            announce("a sequence of downloads: \(downloads.map(\.number)), now image \(download.number)")
            let outcome = await runWithin {
                try await downloadImageAndMetadata(imageNumber: download.number, from: server)
            }
            observations.append(DownloadObservation(end: DownloadEnd(outcome), requests: server.requests.value))
            if outcome == nil { break }
        }
        return observations
    },
    model: { downloads in
        downloads.enumerated().map { index, download in
            DownloadObservation(
                end: ServerAnswer(forImage: download.number).expected(download.number), requests: index + 1)
        }
    })

/// Runs `operation` within the hang limit: `nil` if it was still suspended then.
private func runWithin<Value: Sendable>(
    _ operation: @escaping @Sendable () async throws -> Value
) async -> Result<Value, any Error>? {
    switch await withinHangLimit(hangLimit, { try await operation() }) {
    case .finished(let result): result
    case .stillSuspended: nil
    }
}

/// A part of the contract, run in a child process of its own (see ``inChild(_:crash:)``).
enum ContractPart: String, ChildScenario, CaseIterable {
    case image, errors, neither, overlappingAndSequences

    /// In the child: runs this part's explorations and records what they found.
    func run() async {
        switch self {
        case .image:
            await exploreCancels(of: 1)
        case .errors:
            await exploreCancels(of: 2)
            await exploreCancels(of: 3)
            await exploreFailures(answering: .offline)
        case .neither:
            await exploreCancels(of: 4)
            await exploreFailures(answering: .neither)
        case .overlappingAndSequences:
            await fourDownloadsAtOnce()
            await sequenceCheck.explore().record()
        }
    }
}

/// Runs `part` in a child process, and explains a trap there as `crash` (or, for a force
/// unwrap that found nil, as the `(nil, nil)` lesson), naming the run it happened in.
private func inChild(_ part: ContractPart, crash: Lesson, sourceLocation: SourceLocation = #_sourceLocation)
    async
{
    if await sharedChild.ranShared(part, crash: crash, sourceLocation: sourceLocation) { return }
    let log = CrashLog()
    let run = await offThePool {
        await #expect(processExitsWith: .success, crash.comment, sourceLocation: sourceLocation) {
            [log = log as CrashLog, part = part as ContractPart] in
            await log.runScenario { await part.run() }
        }
    }
    explainChild(run, log, otherwise: crash, sourceLocation: sourceLocation)
}

/// In CI's repeated runs, one child process runs every part (see `SharedChild`).
private let sharedChild = SharedChild<ContractPart> { log, parts in
    await #expect(processExitsWith: .success, SharedChild<ContractPart>.launchComment) {
        [log = log as CrashLog, parts = parts as [ContractPart]] in
        await log.runScenarios(parts) { await $0.run() }
    }
}

/// Four downloads at once, images 1 to 4, one of each answer: each ends with its own.
private func fourDownloadsAtOnce() async {
    announce("four downloads at once, images 1, 2, 3 and 4")
    let server = answeringServer()
    let ends = await withTaskGroup(of: (Int, DownloadEnd).self) { group in
        for number in 1...4 {
            group.addTask {
                let outcome = await runWithin { try await downloadImageAndMetadata(imageNumber: number, from: server) }
                return (number, DownloadEnd(outcome))
            }
        }
        return await group.reduce(into: [Int: DownloadEnd]()) { $0[$1.0] = $1.1 }
    }
    for number in 1...4 {
        let answer = ServerAnswer(forImage: number)
        let end = ends[number] ?? .suspended
        let expected = answer.expected(number)
        if end == .suspended {
            answer.hangLesson.record("  Four downloads at once: download \(number) was \(end).")
        } else if end != expected {
            answer.lesson.record("  Four downloads at once: download \(number) \(end), expected: \(expected).")
        }
    }
    let requests = server.requests.value
    if requests != 4 {
        Bugs.asksAgain.record("  Four downloads at once sent \(requests) requests to the server.")
    }
}

@Suite("Chapter 01: the contract at every cancel point, every failure point, and with overlapping downloads")
struct ContinuationsContractTests {
    @Test(
        "An image, with the caller cancelled before the call, while it waits, or never, is returned after one request")
    func imageAtEveryCancelPoint() async {
        await inChild(.image, crash: Bugs.crashed)
    }

    @Test(
        "Each error, at every cancel point and every failure point, is thrown as it is, and the next download works",
        .exposesBug(Bugs.errorPathNeverResumes))
    func errorsEverywhere() async {
        await inChild(.errors, crash: Bugs.crashed)
    }

    @Test(
        "(nil, nil), at every cancel point and every failure point, throws missingImageAndError, and the next download works",
        .exposesBug(Bugs.neitherPathCrashes))
    func neitherEverywhere() async {
        await inChild(.neither, crash: Bugs.neitherPathCrashes)
    }

    @Test(
        "Four downloads at once, and sequences of downloads, each end with their own answer after one request",
        .exposesBug(Bugs.neitherPathCrashes))
    func overlappingAndSequences() async {
        await inChild(.overlappingAndSequences, crash: Bugs.neitherPathCrashes)
    }
}
