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

@Suite("Chapter 01: wrapping a completion handler with a continuation")
struct DownloadImageTests {
    // Every scenario runs in a child process (an exit test), so that a wrapper that traps,
    // say by resuming twice, fails its own test instead of ending the whole run.

    @Test("An image from the server is the return value")
    func imageIsReturned() async {
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .success, Bugs.crashed.comment) {
                [log = log as CrashLog] in
                await log.runScenario {
                    let server = ImageServer(always: .image(.sample(7)))
                    let result = await awaitResult(
                        of: { try await downloadImageAndMetadata(imageNumber: 7, from: server) },
                        orRecord: Bugs.neverResumes)
                    if let result {
                        #expect(result.value == .sample(7), Bugs.wrongAnswer.comment)
                    }
                    expectOneRequestPerDownload(1, on: server)
                }
            }
        }
        log.explain(run, as: Bugs.crashed)
    }

    @Test(
        "An error from the server is thrown to the caller",
        .exposesBug(Bugs.errorPathNeverResumes))
    func errorIsThrown() async {
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .success, Bugs.crashed.comment) {
                [log = log as CrashLog] in
                await log.runScenario {
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
                }
            }
        }
        log.explain(run, as: Bugs.crashed)
    }

    @Test(
        "Neither image nor error becomes ImageDownloadError.missingImageAndError",
        .exposesBug(Bugs.neitherPathCrashes))
    func neitherBecomesNamedError() async {
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .success, Bugs.neitherPathCrashes.comment) {
                [log = log as CrashLog] in
                await log.runScenario {
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
                }
            }
        }
        log.explain(run, as: Bugs.neitherPathCrashes)
    }

    @Test("Each download asks the server exactly once, one download after another")
    func oneRequestPerDownload() async {
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .success, Bugs.crashed.comment) {
                [log = log as CrashLog] in
                await log.runScenario {
                    let server = ImageServer { .image(.sample($0)) }
                    for number in 1...3 {
                        _ = await awaitResult(
                            of: { try await downloadImageAndMetadata(imageNumber: number, from: server) },
                            orRecord: Bugs.neverResumes)
                    }
                    expectOneRequestPerDownload(3, on: server)
                }
            }
        }
        log.explain(run, as: Bugs.crashed)
    }
}
