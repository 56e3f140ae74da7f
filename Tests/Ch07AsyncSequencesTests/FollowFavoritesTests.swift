import Foundation
import SimulatedWorld
import Testing
import WorkbookTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if Solutions
    import Ch07AsyncSequencesSolution
#else
    import Ch07AsyncSequences
#endif

/// A feed server, a screen and its model; ``start()`` runs followFavorites() in the background.
@MainActor
private struct LiveFavorites {
    let server = SimulatedHTTPServer()
    let feed: ScriptedLineStream
    let screen = SimulatedScreen<FavoritesSnapshot>()
    let model: FavoritesModel

    init() {
        feed = server.stream(at: "/favorites/live")
        model = FavoritesModel(screen: screen)
    }

    /// Starts following, as a loader off the main actor would.
    func start() -> Task<Void, any Error> {
        let (server, model) = (server, model)
        return Task.detached {
            try await followFavorites(from: server.baseURL, using: SimulatedURLSession(server: server), into: model)
        }
    }
}

private func line(_ photoId: String, _ favorites: Int) -> String {
    #"{"photoId":"\#(photoId)","favorites":\#(favorites)}"#
}

/// The scenarios, each run by one test in a child process.
@MainActor
private enum FollowScenario {
    static func finalCounts() async {
        let live = LiveFavorites()
        let following = live.start()
        for (photo, count) in [("1", 10), ("2", 20), ("1", 11)] { live.feed.send(line(photo, count)) }
        live.feed.finish()
        let result = await awaitResult(of: { try await following.value }, orRecord: Bugs.feedNeverEnds)
        #expect(throws: Never.self, Bugs.wrongCounts.comment) { try result?.get() }
        #expect(live.screen.content?.counts == ["1": 11, "2": 20], Bugs.wrongCounts.comment)
    }

    static func updatesAreLive() async {
        let live = LiveFavorites()
        let following = live.start()
        await awaitResult(of: { await live.feed.connections.reach(1) }, orRecord: Bugs.feedNeverEnds)
        var expected: [String: Int] = [:]
        for (index, (photo, count)) in [("1", 10), ("2", 20), ("1", 11)].enumerated() {
            live.feed.send(line(photo, count))
            expected[photo] = count
            // Wait, within the hang limit, for the redraw this line should cause.
            let shown = await awaitResult(
                of: { await live.screen.draws.reach(index + 1) }, orRecord: Bugs.noLiveUpdates)
            guard shown != nil else { break }
            #expect(
                live.model.snapshot.counts == expected,
                Bugs.noLiveUpdates.comment("After line \(index + 1) the model holds \(live.model.snapshot.counts)"))
            #expect(
                live.screen.content?.counts == expected,
                Bugs.noLiveUpdates.comment(
                    "After line \(index + 1) the screen shows \(live.screen.content?.counts ?? [:])"))
        }
        live.feed.finish()
        await awaitResult(of: { try await following.value }, orRecord: Bugs.feedNeverEnds)
    }

    static func updatesRunOnTheMainActor() async {
        let live = LiveFavorites()
        let following = live.start()
        live.feed.send(line("1", 10))
        live.feed.send(line("2", 20))
        live.feed.finish()
        await awaitResult(of: { try await following.value }, orRecord: Bugs.feedNeverEnds)
        #expect(live.screen.frames.count == 2, Bugs.wrongCounts.comment)
        expectDrawnOnTheMainActor(live.screen.frames)
    }

    /// Checks every redraw ran on the main actor, and names the model methods that did not.
    static func expectDrawnOnTheMainActor(_ frames: [SimulatedScreen<FavoritesSnapshot>.Frame]) {
        var offMain: [String] = []
        var skippedBefore = 0
        for frame in frames {
            let method = frame.content.skippedLines > skippedBefore ? "skipMalformedLine()" : "apply(_:)"
            skippedBefore = frame.content.skippedLines
            if !frame.drawnOnMainActor { offMain.append(method) }
        }
        #expect(
            offMain.isEmpty,
            Bugs.offMainActor.comment(
                "\(offMain.count) of \(frames.count) redraws ran off the main actor, from FavoritesModel.\(offMain.joined(separator: ", "))."
            ))
    }

    static func malformedLineIsSkipped() async {
        let live = LiveFavorites()
        let following = live.start()
        live.feed.send(line("1", 10))
        live.feed.send("<html>502 Bad Gateway</html>")
        live.feed.send(line("2", 20))
        live.feed.finish()
        let result = await awaitResult(of: { try await following.value }, orRecord: Bugs.feedNeverEnds)
        let shown = live.screen.content ?? FavoritesSnapshot()
        let expected = FavoritesSnapshot(counts: ["1": 10, "2": 20], skippedLines: 1)
        switch result {
        case nil:
            break  // still suspended: already recorded
        case .failure(let error)?:
            Bugs.malformedLineEndsFeed.record("followFavorites() threw \(error). The screen shows \(shown).")
        case .success?:
            if shown.counts != expected.counts {
                Bugs.malformedLineEndsFeed.record(
                    "followFavorites() returned, but the screen shows \(shown.counts): the line after the bad one is missing."
                )
            } else if shown.skippedLines == 0 {
                Bugs.malformedLineNotCounted.record("The screen shows skippedLines == 0 after one bad line.")
            } else {
                #expect(
                    shown.skippedLines == 1,
                    Bugs.malformedLineNotCounted.comment(
                        "One line was bad, but the screen shows skippedLines == \(shown.skippedLines)."))
            }
        }
        // The redraw for the skipped line belongs on the main actor too.
        expectDrawnOnTheMainActor(live.screen.frames)
    }

    static func droppedConnectionIsThrown() async {
        let live = LiveFavorites()
        let following = live.start()
        live.feed.send(line("1", 10))
        live.feed.fail(with: URLError(.networkConnectionLost))
        let result = await awaitResult(of: { try await following.value }, orRecord: Bugs.feedNeverEnds)
        switch result {
        case nil:
            break  // still suspended: already recorded
        case .success?:
            Bugs.connectionErrorHidden.record(
                "The connection dropped with URLError(.networkConnectionLost), and followFavorites() returned normally."
            )
        case .failure(let error)?:
            #expect(
                (error as? URLError)?.code == .networkConnectionLost,
                Bugs.connectionErrorHidden.comment(
                    "The connection dropped with URLError(.networkConnectionLost), but followFavorites() threw \(error)."
                ))
        }
    }
}

/// The scenarios as values, so that CI's repeated runs can run them all in one child process
/// (`SharedChild`).
private enum FollowCase: ChildScenario, CaseIterable {
    case finalCounts, updatesAreLive, updatesRunOnTheMainActor, malformedLineIsSkipped, droppedConnectionIsThrown

    func run() async {
        switch self {
        case .finalCounts: await FollowScenario.finalCounts()
        case .updatesAreLive: await FollowScenario.updatesAreLive()
        case .updatesRunOnTheMainActor: await FollowScenario.updatesRunOnTheMainActor()
        case .malformedLineIsSkipped: await FollowScenario.malformedLineIsSkipped()
        case .droppedConnectionIsThrown: await FollowScenario.droppedConnectionIsThrown()
        }
    }

    /// Runs this scenario in a child process, and explains a trap there as the chapter's crash lesson.
    func runInChildProcess(sourceLocation: SourceLocation = #_sourceLocation) async {
        if await Self.sharedChild.ranShared(self, crash: Bugs.crashed, sourceLocation: sourceLocation) { return }
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .success, Bugs.crashed.comment, sourceLocation: sourceLocation) {
                [log = log as CrashLog, scenario = self as FollowCase] in
                await log.runScenario { await scenario.run() }
            }
        }
        log.explain(run, as: Bugs.crashed, sourceLocation: sourceLocation)
    }

    /// In CI's repeated runs, one child process runs every scenario.
    static let sharedChild = SharedChild<FollowCase> { log, scenarios in
        await #expect(processExitsWith: .success, SharedChild<FollowCase>.launchComment) {
            [log = log as CrashLog, scenarios = scenarios as [FollowCase]] in
            await log.runScenarios(scenarios) { await $0.run() }
        }
    }
}

@Suite("Chapter 07: followFavorites() shows each line as it arrives, on the main actor")
struct FollowFavoritesTests {
    // Each scenario runs in a child process (an exit test), with a thread pool of its own:
    // the bounded waits below then measure the code under test, not other tests' load.

    @Test("After the feed ends, the screen shows each photo's latest count")
    func finalCounts() async {
        await FollowCase.finalCounts.runInChildProcess()
    }

    @Test("Each line shows on the screen before the next one is sent", .exposesBug(Bugs.noLiveUpdates))
    func updatesAreLive() async {
        await FollowCase.updatesAreLive.runInChildProcess()
    }

    @Test("Every redraw happens on the main actor", .exposesBug(Bugs.offMainActor))
    func updatesRunOnTheMainActor() async {
        await FollowCase.updatesRunOnTheMainActor.runInChildProcess()
    }

    @Test(
        "A malformed line is skipped and counted, on the main actor; the lines after it still show",
        .exposesBug(Bugs.malformedLineEndsFeed))
    func malformedLineIsSkipped() async {
        await FollowCase.malformedLineIsSkipped.runInChildProcess()
    }

    @Test("When the connection drops, followFavorites() throws its error")
    func droppedConnectionIsThrown() async {
        await FollowCase.droppedConnectionIsThrown.runInChildProcess()
    }
}
