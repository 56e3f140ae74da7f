import Foundation
import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch06AsyncNetworkingSolution
#else
    import Ch06AsyncNetworking
#endif

/// A server with photo 7 and its comments.
private func photoServer() -> SimulatedHTTPServer {
    let server = SimulatedHTTPServer()
    server.respond(to: "/photos/7", with: .json(harbourJSON))
    server.respond(to: "/photos/7/comments", with: .json(#"["Lovely light","Where is this?"]"#))
    return server
}

private let photoPath = "/photos/7"
private let commentsPath = "/photos/7/comments"

/// Checks the requests the page load sent: each once, and none after the cancel.
private func expectPageRequests(
    _ received: [String], are expected: [String], sourceLocation: SourceLocation = #_sourceLocation
) {
    expectRequests(
        received, are: expected, from: "loadPhotoPage()", section: "A Task is not a URLSessionTask",
        otherwise: received.count > expected.count ? Bugs.secondRequestStarted : Bugs.pageWrong,
        sourceLocation: sourceLocation)
}

/// The scenarios as values, each run in a child process of its own, or, in CI's repeated runs,
/// all of them in one (`SharedChild`).
private enum PageCase: ChildScenario {
    case pageLoads
    case cancelWhileDownloading(String)
    case alreadyCancelledStartsNothing

    static let everyScenario: [PageCase] =
        [.pageLoads] + [photoPath, commentsPath].map { .cancelWhileDownloading($0) } + [.alreadyCancelledStartsNothing]

    func run() async {
        switch self {
        case .pageLoads:
            let server = photoServer()
            let session = SimulatedURLSession(server: server)
            let result = await awaitResult(
                of: { try await loadPhotoPage(id: "7", from: server.baseURL, using: session) },
                orRecord: Bugs.pageNeverEnds)
            if let result {
                #expect(
                    result.value == PhotoPage(photo: harbour, comments: ["Lovely light", "Where is this?"]),
                    Bugs.pageWrong.comment("loadPhotoPage() gave: \(result)"))
            }
            expectPageRequests(server.receivedRequests, are: ["GET /photos/7", "GET /photos/7/comments"])
        case .cancelWhileDownloading(let held):
            let server = photoServer()
            server.holdResponses(to: held)
            let session = SimulatedURLSession(server: server)
            let page = Task { try await loadPhotoPage(id: "7", from: server.baseURL, using: session) }
            await awaitResult(of: { await server.requestsHeld.reach(1) }, orRecord: Bugs.pageWrong)

            // The user leaves the screen while `held` is still on its way.
            page.cancel()
            await awaitResult(of: { await server.cancellations.reach(1) }, orRecord: Bugs.transferNotCancelled)
            #expect(
                server.cancelledPaths == [held],
                Bugs.transferNotCancelled.comment("Cancelled at the server: \(server.cancelledPaths)"))

            // If nothing stopped the transfer, the answer arrives now: does the loader carry on?
            server.releaseResponses(to: held)
            let result = await awaitResult(of: { try await page.value }, orRecord: Bugs.pageNeverEnds)
            // Every data task's completion runs before the scenario ends, so a late completion
            // that resumes a second time does so here, every time, not after the child exited.
            _ = await withinHangLimit { await session.allCompletionsDelivered() }
            if case .success(let loaded)? = result {
                (server.cancellations.value > 0 ? Bugs.cancelSwallowed : Bugs.transferNotCancelled).record(
                    "loadPhotoPage() returned \(loaded) to a Task cancelled while \"\(held)\" was downloading.")
            }
            if case .failure(let error)? = result {
                #expect(isCancellation(error), Bugs.wrongErrorOnCancel.comment("It threw \(error)."))
            }
            let expected = held == photoPath ? ["GET /photos/7"] : ["GET /photos/7", "GET /photos/7/comments"]
            expectPageRequests(server.receivedRequests, are: expected)
        case .alreadyCancelledStartsNothing:
            let server = photoServer()
            let session = SimulatedURLSession(server: server)
            let page = Task {
                // The user left before the page load began.
                withUnsafeCurrentTask { $0?.cancel() }
                return try await loadPhotoPage(id: "7", from: server.baseURL, using: session)
            }
            let result = await awaitResult(of: { try await page.value }, orRecord: Bugs.pageNeverEnds)
            // Counted in the caller's own turn, before any request could reach the server.
            let started = session.transfersStarted.value
            #expect(
                started == 0,
                Bugs.startsWhenAlreadyCancelled.comment(
                    "Transfers started: \(started); the server has received: \(server.receivedRequests)"))
            if case .success(let loaded)? = result {
                Bugs.startsWhenAlreadyCancelled.record(
                    "loadPhotoPage() returned \(loaded) to a cancelled Task.")
            }
            if case .failure(let error)? = result {
                #expect(isCancellation(error), Bugs.wrongErrorOnCancel.comment("It threw \(error)."))
            }
        }
    }

    /// Runs this scenario in a child process, and explains a trap there.
    func runInChildProcess(sourceLocation: SourceLocation = #_sourceLocation) async {
        if await Self.sharedChild.ranShared(self, crash: Bugs.crashed, sourceLocation: sourceLocation) { return }
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .success, Bugs.crashed.comment, sourceLocation: sourceLocation) {
                [log = log as CrashLog, scenario = self as PageCase] in
                await log.runScenario { await scenario.run() }
            }
        }
        log.explain(run, as: Bugs.crashed, sourceLocation: sourceLocation)
    }

    /// In CI's repeated runs, one child process runs every scenario.
    static let sharedChild = SharedChild<PageCase> { log, scenarios in
        await #expect(processExitsWith: .success, SharedChild<PageCase>.launchComment) {
            [log = log as CrashLog, scenarios = scenarios as [PageCase]] in
            await log.runScenarios(scenarios) { await $0.run() }
        }
    }
}

@Suite("Chapter 06: cancelling the Task cancels the transfer")
struct LoadPhotoPageTests {
    // Each scenario runs in a child process (an exit test): a bridge that resumes its
    // continuation twice traps, and the trap must end only that scenario.

    @Test("Left alone, the page loads the photo, then its comments")
    func pageLoads() async {
        await PageCase.pageLoads.runInChildProcess()
    }

    @Test(
        "Cancelling the Task cancels the transfer in flight, and no request starts after it",
        .exposesBug(Bugs.transferNotCancelled, Bugs.secondRequestStarted),
        arguments: [photoPath, commentsPath])
    func cancellingTheTaskCancelsTheTransfer(whileDownloading held: String) async {
        await PageCase.cancelWhileDownloading(held).runInChildProcess()
    }

    @Test(
        "A Task that is already cancelled when it calls loadPhotoPage() starts no transfer",
        .exposesBug(Bugs.startsWhenAlreadyCancelled))
    func alreadyCancelledStartsNothing() async {
        await PageCase.alreadyCancelledStartsNothing.runInChildProcess()
    }
}
