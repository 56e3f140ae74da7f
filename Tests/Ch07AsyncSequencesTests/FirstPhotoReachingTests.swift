import Foundation
import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch07AsyncSequencesSolution
#else
    import Ch07AsyncSequences
#endif

/// A live feed, and firstPhoto(reaching:) watching it from a task of its own.
private struct Watch {
    let server = SimulatedHTTPServer()
    let feed: ScriptedLineStream
    let watching: Task<FavoriteUpdate?, any Error>

    init(threshold: Int) {
        let server = server
        feed = server.stream(at: "/favorites/live")
        watching = Task.detached {
            try await firstPhoto(reaching: threshold, from: server.baseURL, using: SimulatedURLSession(server: server))
        }
    }

    static func line(_ photoId: String, _ favorites: Int) -> String {
        #"{"photoId":"\#(photoId)","favorites":\#(favorites)}"#
    }
}

@Suite("Chapter 07: firstPhoto(reaching:) stops at its answer and hangs up")
struct FirstPhotoReachingTests {
    @Test(
        "The first photo to reach the threshold is returned while the feed is still open, and the feed is hung up",
        .exposesBug(Bugs.readsOnAfterAnswer))
    func stopsAtTheFirstMatch() async {
        let watch = Watch(threshold: 50)
        guard await awaitResult(of: { await watch.feed.connections.reach(1) }, orRecord: Bugs.wrongFirstPhoto) != nil
        else { return }
        for line in [Watch.line("1", 10), "not a favorite update", Watch.line("2", 50)] {
            watch.feed.send(line)
        }
        // The answer has come, and the server sends nothing more and does not end the feed: a
        // live feed may stay quiet for hours. Only a reader that stops at the match returns.
        guard let result = await awaitResult(of: { try await watch.watching.value }, orRecord: Bugs.readsOnAfterAnswer)
        else {
            watch.feed.finish()  // lets the exercise return, so nothing is left running
            return
        }
        #expect(
            (try? result.get()) == FavoriteUpdate(photoId: "2", favorites: 50),
            Bugs.wrongFirstPhoto.comment("firstPhoto(reaching: 50) returned \(result)."))
        // The answer is in: the client hangs up, and the server sees it.
        await awaitResult(of: { await watch.feed.hangUps.reach(1) }, orRecord: Bugs.feedNotHungUp)
        #expect(
            watch.server.cancelledPaths == ["/favorites/live"],
            Bugs.feedNotHungUp.comment("The transfers the server saw cancelled: \(watch.server.cancelledPaths)"))
    }

    @Test("A feed that ends before any photo reaches the threshold: nil")
    func feedEndsFirst() async {
        let watch = Watch(threshold: 50)
        watch.feed.send(Watch.line("1", 10))
        watch.feed.finish()
        let result = await awaitResult(of: { try await watch.watching.value }, orRecord: Bugs.wrongFirstPhoto)
        guard let result else { return }
        if case .success(nil) = result { return }
        Bugs.wrongFirstPhoto.record(
            "The feed ended with no photo at 50 favorites; firstPhoto(reaching: 50) returned \(result).")
    }
}
