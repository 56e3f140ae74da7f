import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch01ContinuationsSolution
#else
    import Ch01Continuations
#endif

private let reading = ChapterReading("01-Continuations")

/// Records a lesson if `server` got more requests than the `expected` downloads.
private func expectOneRequestPerDownload(
    _ expected: Int, on server: ImageServer, sourceLocation: SourceLocation = #_sourceLocation
) {
    let requests = server.requests.value
    if requests > expected {
        Bugs.asksAgain.record(
            "\(expected) download(s) sent \(requests) requests to the server.", sourceLocation: sourceLocation)
    }
}

/// What can go wrong in this chapter, in the learner's words.
enum Bugs {
    static let errorPathNeverResumes = reading.lesson(
        "the continuation is never resumed on the error path",
        "the server called back with an error, but the caller is still suspended and will wait for ever",
        section: "Resume exactly once, on every path")
    static let neitherPathCrashes = reading.lesson(
        "the (nil, nil) answer crashes the wrapper",
        "the server called back with neither an image nor an error, and the wrapper took the process down",
        section: "When the server sends neither")
    static let neitherPathUnnamed = reading.lesson(
        "the (nil, nil) answer does not throw ImageDownloadError.missingImageAndError",
        "a caller can only handle this case if it arrives as a named error",
        section: "When the server sends neither")
    static let crashed = reading.lesson(
        "the wrapper crashed the process",
        "a continuation must be resumed exactly once; resuming twice traps",
        section: "Resume exactly once, on every path")
    static let neverResumes = reading.lesson(
        "the continuation is never resumed",
        "the caller is still suspended after the server answered",
        section: "Resume exactly once, on every path")
    static let asksAgain = reading.lesson(
        "the wrapper asked the server more than once for one download",
        "one call to downloadImageAndMetadata(imageNumber:from:) must send exactly one request, whatever the answer; retrying is the caller's decision",
        section: "When the server sends neither")
    static let sequenceBroken = reading.lesson(
        "a download in a sequence does not end with its own answer",
        "each download returns its own image or throws its own error after one request, whatever the downloads before it got; nothing is remembered from one call to the next",
        section: "Your task")
    static let wrongAnswer = reading.lesson(
        "the wrapper does not pass the server's answer through",
        "the caller should get exactly the image, or exactly the error, that the server sent",
        section: "Resume exactly once, on every path")
}

/// The scenarios as values, each run in a child process of its own, or, in CI's repeated runs,
/// all of them in one (`SharedChild`).
private enum DownloadCase: String, ChildScenario, CaseIterable {
    case imageIsReturned, errorIsThrown, neitherBecomesNamedError, oneRequestPerDownload

    /// What a crash in this scenario most likely means.
    var crashLesson: Lesson {
        switch self {
        case .imageIsReturned, .errorIsThrown, .oneRequestPerDownload: Bugs.crashed
        case .neitherBecomesNamedError: Bugs.neitherPathCrashes
        }
    }

    func run() async {
        switch self {
        case .imageIsReturned:
            let server = ImageServer(always: .image(.sample(7)))
            let result = await awaitResult(
                of: { try await downloadImageAndMetadata(imageNumber: 7, from: server) },
                orRecord: Bugs.neverResumes)
            if let result {
                #expect(result.value == .sample(7), Bugs.wrongAnswer.comment)
            }
            expectOneRequestPerDownload(1, on: server)
        case .errorIsThrown:
            let server = ImageServer(always: .error(.notFound(imageNumber: 4)))
            let result = await awaitResult(
                of: { try await downloadImageAndMetadata(imageNumber: 4, from: server) },
                orRecord: Bugs.errorPathNeverResumes)
            if let result {
                #expect(throws: ImageServerError.notFound(imageNumber: 4), Bugs.wrongAnswer.comment) {
                    try result.get()
                }
            }
            expectOneRequestPerDownload(1, on: server)
        case .neitherBecomesNamedError:
            let server = ImageServer(always: .neither)
            let result = await awaitResult(
                of: { try await downloadImageAndMetadata(imageNumber: 9, from: server) },
                orRecord: Bugs.neitherPathUnnamed)
            if let result {
                #expect(
                    throws: ImageDownloadError.missingImageAndError(imageNumber: 9),
                    Bugs.neitherPathUnnamed.comment
                ) { try result.get() }
            }
            expectOneRequestPerDownload(1, on: server)
        case .oneRequestPerDownload:
            let server = ImageServer { .image(.sample($0)) }
            for number in 1...3 {
                _ = await awaitResult(
                    of: { try await downloadImageAndMetadata(imageNumber: number, from: server) },
                    orRecord: Bugs.neverResumes)
            }
            expectOneRequestPerDownload(3, on: server)
        }
    }

    /// Runs this scenario in a child process, and explains a trap there.
    func runInChildProcess(sourceLocation: SourceLocation = #_sourceLocation) async {
        if await Self.sharedChild.ranShared(self, crash: crashLesson, sourceLocation: sourceLocation) { return }
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .success, crashLesson.comment, sourceLocation: sourceLocation) {
                [log = log as CrashLog, scenario = self as DownloadCase] in
                await log.runScenario { await scenario.run() }
            }
        }
        log.explain(run, as: crashLesson, sourceLocation: sourceLocation)
    }

    /// In CI's repeated runs, one child process runs every scenario.
    static let sharedChild = SharedChild<DownloadCase> { log, scenarios in
        await #expect(processExitsWith: .success, SharedChild<DownloadCase>.launchComment) {
            [log = log as CrashLog, scenarios = scenarios as [DownloadCase]] in
            await log.runScenarios(scenarios) { await $0.run() }
        }
    }
}

@Suite("Chapter 01: wrapping a completion handler with a continuation")
struct DownloadImageTests {
    // Every scenario runs in a child process (an exit test), so that a wrapper that traps,
    // say by resuming twice, fails its own test instead of ending the whole run.

    @Test("An image from the server is the return value")
    func imageIsReturned() async {
        await DownloadCase.imageIsReturned.runInChildProcess()
    }

    @Test(
        "An error from the server is thrown to the caller",
        .exposesBug(Bugs.errorPathNeverResumes))
    func errorIsThrown() async {
        await DownloadCase.errorIsThrown.runInChildProcess()
    }

    @Test(
        "Neither image nor error becomes ImageDownloadError.missingImageAndError",
        .exposesBug(Bugs.neitherPathCrashes))
    func neitherBecomesNamedError() async {
        await DownloadCase.neitherBecomesNamedError.runInChildProcess()
    }

    @Test("Each download asks the server exactly once, one download after another")
    func oneRequestPerDownload() async {
        await DownloadCase.oneRequestPerDownload.runInChildProcess()
    }
}
