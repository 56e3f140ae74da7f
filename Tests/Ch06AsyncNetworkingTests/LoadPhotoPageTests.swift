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

@Suite("Chapter 06: cancelling the Task cancels the transfer")
struct LoadPhotoPageTests {
    // Each scenario runs in a child process (an exit test): a bridge that resumes its
    // continuation twice traps, and the trap must end only that scenario.

    @Test("Left alone, the page loads the photo, then its comments")
    func pageLoads() async {
        let log = CrashLog()
        let run = await #expect(processExitsWith: .success, Bugs.crashed.comment) { [log = log as CrashLog] in
            await log.runScenario {
                let server = photoServer()
                let session = SimulatedURLSession(server: server)
                let result = await awaitResult(
                    of: { try await loadPhotoPage(id: "7", from: server.baseURL, using: session) },
                    orRecord: Bugs.pageNeverEnds)
                if let result {
                    #expect(
                        result.value == PhotoPage(photo: harbour, comments: ["Lovely light", "Where is this?"]),
                        Bugs.pageWrong.comment)
                }
                #expect(server.receivedRequests == ["GET /photos/7", "GET /photos/7/comments"], Bugs.pageWrong.comment)
            }
        }
        log.explain(run, as: Bugs.crashed)
    }

    @Test(
        "Cancelling the Task cancels the photo transfer, and the comments request never starts",
        .exposesBug(Bugs.transferNotCancelled, Bugs.secondRequestStarted))
    func cancellingTheTaskCancelsTheTransfer() async {
        let log = CrashLog()
        let run = await #expect(processExitsWith: .success, Bugs.crashed.comment) { [log = log as CrashLog] in
            await log.runScenario {
                let server = photoServer()
                server.holdResponses(to: "/photos/7")
                let session = SimulatedURLSession(server: server)
                let page = Task { try await loadPhotoPage(id: "7", from: server.baseURL, using: session) }
                await awaitResult(of: { await server.requestsHeld.reach(1) }, orRecord: Bugs.pageWrong)

                // The user leaves the screen while the photo is still on its way.
                page.cancel()
                await awaitResult(of: { await server.cancellations.reach(1) }, orRecord: Bugs.transferNotCancelled)
                #expect(server.cancelledPaths == ["/photos/7"], Bugs.transferNotCancelled.comment)

                // If nothing stopped the transfer, the photo arrives now: does the loader carry on?
                server.releaseResponses(to: "/photos/7")
                let result = await awaitResult(of: { try await page.value }, orRecord: Bugs.pageNeverEnds)
                if case .success(let loaded)? = result {
                    Bugs.transferNotCancelled.record("loadPhotoPage() returned \(loaded) to a cancelled Task.")
                }
                if case .failure(let error)? = result {
                    #expect(isCancellation(error), Bugs.transferNotCancelled.comment("It threw \(error) instead."))
                }
                #expect(
                    server.receivedRequests == ["GET /photos/7"],
                    Bugs.secondRequestStarted.comment("The server received: \(server.receivedRequests)"))
            }
        }
        log.explain(run, as: Bugs.crashed)
    }
}
