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

// Chapter 07's contract (the reading's "Your task"), explored on its own, for each of the three
// functions: the caller cancelled before the call and right after each line it handled, and the
// feed broken at each of its lines in turn (the connection dropped there, or a malformed line
// there), then the same call made again on the same session. A step of a run is a line the
// caller has handled; the test sends the next line only after that step, so a cancel always
// lands between two lines, never by chance.
//
// Each function's explorations run in a child process (an exit test): a wrong fix can trap
// there (an onTermination that assumes the main actor runs wherever the stream ends, a stream
// iterated twice), and a trap must end only that child.

private let feedPath = "/favorites/live"
private let malformedLine = "<html>502 Bad Gateway</html>"

private func update(_ photoId: String, _ favorites: Int) -> String {
    #"{"photoId":"\#(photoId)","favorites":\#(favorites)}"#
}

/// How the server breaks its script at the failing point.
enum FeedBreak: String, Codable, Sendable {
    /// The connection drops (`URLError(.networkConnectionLost)`) instead of the line.
    case dropped
    /// A line that is not a favorite update comes instead of the line.
    case malformed
}

/// How a call ended, in the terms the contract uses.
enum Ending: Sendable, Equatable, CustomStringConvertible {
    case returned
    case connectionLost
    case cancelled
    case threw(String)

    init(_ error: (any Error)?) {
        switch error {
        case nil: self = .returned
        case let error as URLError where error.code == .networkConnectionLost: self = .connectionLost
        case let error as URLError where error.code == .cancelled: self = .cancelled
        case is CancellationError: self = .cancelled
        case let error?: self = .threw("\(error)")
        }
    }

    var description: String {
        switch self {
        case .returned: "ended normally"
        case .connectionLost: "threw URLError(.networkConnectionLost)"
        case .cancelled: "threw a cancel"
        case .threw(let error): "threw \(error)"
        }
    }
}

/// A server and its session; each run opens a fresh feed on it.
struct FeedWorld: Sendable {
    let server = SimulatedHTTPServer()
    let session: SimulatedURLSession
    let plan: FailurePlan
    let probe: StepProbe
    /// The feeds the runs opened, in order.
    let feeds = Locked<[ScriptedLineStream]>([])

    init(plan: FailurePlan = .never, probe: StepProbe = StepProbe()) {
        session = SimulatedURLSession(server: server)
        self.plan = plan
        self.probe = probe
    }

    /// Opens a fresh feed and sends `lines`, asking the plan before each line (and before the
    /// end, when the script `ends`) whether the server breaks there, and how.
    @discardableResult
    func script(_ lines: [String], breaking: FeedBreak, ends: Bool) -> ScriptedLineStream {
        let feed = server.stream(at: feedPath)
        feeds.withLock { $0.append(feed) }
        for (index, line) in lines.enumerated() {
            guard plan.nextCallFails("the server sends line \(index + 1)") else {
                feed.send(line)
                continue
            }
            if breaking == .malformed {
                feed.send(malformedLine)
                continue
            }
            feed.fail(with: URLError(.networkConnectionLost))
            return feed
        }
        guard ends else { return feed }
        if breaking == .dropped, plan.nextCallFails("the server ends the feed") {
            feed.fail(with: URLError(.networkConnectionLost))
        } else {
            feed.finish()
        }
        return feed
    }

    /// Opens a fresh feed with only its first line sent, if any; the rest is up to the test.
    @discardableResult
    func openFeed(first line: String? = nil) -> ScriptedLineStream {
        let feed = server.stream(at: feedPath)
        feeds.withLock { $0.append(feed) }
        if let line { feed.send(line) }
        return feed
    }
}

/// What the client receives of `lines` when the script breaks at call `failingCall` (nil: it
/// doesn't), and whether the connection drops after them.
private func received(_ lines: [String], failingCall: Int?, breaking: FeedBreak) -> (lines: [String], dropped: Bool) {
    var got: [String] = []
    for (index, line) in lines.enumerated() {
        guard failingCall == index + 1 else {
            got.append(line)
            continue
        }
        if breaking == .dropped { return (got, true) }
        got.append(malformedLine)
    }
    return (got, breaking == .dropped && failingCall == lines.count + 1)
}

/// Waits, bounded, for the client to hang up `feed`; true if it did.
private func hangsUp(_ feed: ScriptedLineStream) async -> Bool {
    if case .finished = await withinHangLimit(hangLimit, { await feed.hangUps.reach(1) }) { return true }
    return false
}

// MARK: followFavorites, the consumer

private let followLines = [update("1", 10), update("2", 20), update("1", 11)]

/// What followFavorites showed: how it ended, the screen then, and what happened to the
/// screen afterwards.
struct FollowEnd: Sendable, CustomStringConvertible {
    var ending: Ending
    var shown = FavoritesSnapshot()
    var offMain = 0
    var drawsAfterEnd = 0

    /// How it ended, and what the screen showed then.
    var summary: String {
        "\(ending); the screen showed \(shown.counts), skippedLines \(shown.skippedLines)"
    }

    var description: String { "(followFavorites() \(summary))" }
}

/// Runs followFavorites on a fresh screen, off the main actor, and looks at the screen when it
/// has ended and once more after the main actor has run what was queued for it.
private func follow(_ world: FeedWorld, screen: SimulatedScreen<FavoritesSnapshot> = SimulatedScreen()) async
    -> FollowEnd
{
    let model = await MainActor.run { FavoritesModel(screen: screen) }
    var failure: (any Error)?
    do {
        try await followFavorites(from: world.server.baseURL, using: world.session, into: model)
    } catch {
        failure = error
    }
    let frames = screen.frames
    await MainQueue.drain()
    await MainQueue.drain()
    return FollowEnd(
        ending: Ending(failure), shown: frames.last?.content ?? FavoritesSnapshot(),
        offMain: frames.filter { !$0.drawnOnMainActor }.count, drawsAfterEnd: screen.frames.count - frames.count)
}

/// What the screen must show after `lines`.
private func snapshot(of lines: [String]) -> FavoritesSnapshot {
    lines.reduce(into: FavoritesSnapshot()) { shown, line in
        if let update = try? JSONDecoder().decode(FavoriteUpdate.self, from: Data(line.utf8)) {
            shown.counts[update.photoId] = update.favorites
        } else {
            shown.skippedLines += 1
        }
    }
}

/// The promises every end of followFavorites keeps: shown on the main actor, nothing drawn
/// after it ended.
private func drawnRight(_ end: FollowEnd, _ when: String) -> [Violation] {
    var violations: [Violation] = []
    if end.offMain > 0 {
        violations.append(Violation(Bugs.offMainActor, "\(when): \(end.offMain) redraw(s) ran off the main actor"))
    }
    if end.drawsAfterEnd > 0 {
        violations.append(
            Violation(Bugs.drawnAfterEnd, "\(when): the screen was redrawn \(end.drawsAfterEnd) time(s) after it ended")
        )
    }
    return violations
}

/// The contract for one run of followFavorites on a feed that sent `got`, then dropped the
/// connection or ended normally.
private func followKept(_ end: FollowEnd, got: [String], dropped: Bool, _ when: String) -> [Violation] {
    var violations = drawnRight(end, when)
    let expected = snapshot(of: got)
    let malformed = got.contains(malformedLine)
    let observed = "\(when): \(end.summary); expected \(expected.counts), skippedLines \(expected.skippedLines)"
    if dropped, end.ending != .connectionLost {
        violations.append(Violation(Bugs.connectionErrorHidden, observed))
    } else if !dropped, end.ending != .returned {
        violations.append(Violation(malformed ? Bugs.malformedLineEndsFeed : Bugs.wrongCounts, observed))
    }
    if end.shown.counts != expected.counts {
        let lesson = malformed ? Bugs.malformedLineEndsFeed : dropped ? Bugs.noLiveUpdates : Bugs.wrongCounts
        violations.append(Violation(lesson, observed))
    } else if end.shown.skippedLines != expected.skippedLines {
        violations.append(Violation(Bugs.malformedLineNotCounted, observed))
    }
    return violations
}

/// Every failure point of a feed of three updates: the connection drops at each line and at
/// the end, or each line is malformed; then followFavorites again on the same session.
private func exploreFollowFailures(_ breaking: FeedBreak) async {
    let report = await exploreFailurePoints(
        "followFavorites, the feed sending \(followLines.count) updates, one of them \(breaking)",
        world: { plan in FeedWorld(plan: plan) },
        operation: { world in
            world.script(followLines, breaking: breaking, ends: true)
            return await follow(world)
        }
    ) { run, _ in
        guard case .success(let first)? = run.outcome, case .success(let again)? = run.recovery else {
            return [Violation(Bugs.feedNeverEnds, "followFavorites() was still suspended after the feed had ended")]
        }
        let expected = received(followLines, failingCall: run.failingCall, breaking: breaking)
        return followKept(first, got: expected.lines, dropped: expected.dropped, "followFavorites()")
            + followKept(again, got: followLines, dropped: false, "called again, nothing failing")
    }
    report.record()
}

/// Every cancel point of followFavorites on a feed of three updates: each line is sent once the
/// screen shows the one before it, so the cancel comes between two lines.
private func exploreFollowCancels() async {
    let screens = Locked<[SimulatedScreen<FavoritesSnapshot>]>([])
    let report = await exploreCancelPoints(
        "followFavorites, the feed sending \(followLines.count) updates, each once the one before it shows",
        world: { probe in
            let world = FeedWorld(probe: probe)
            let screen = SimulatedScreen<FavoritesSnapshot>()
            screens.withLock { $0.append(screen) }
            let feed = world.openFeed(first: followLines[0])
            // Left waiting if the screen never shows the line: the child process ends it.
            Task {
                for shown in 1...followLines.count {
                    await screen.draws.reach(shown)
                    probe.step("the screen shows line \(shown)")
                    guard !probe.cancelMade else { return }
                    if shown < followLines.count { feed.send(followLines[shown]) } else { feed.finish() }
                }
            }
            return world
        },
        operation: { world in
            await follow(world, screen: screens.withLock { $0[$0.count - 1] })
        }
    ) { run, world in
        guard case .success(let end)? = run.outcome else {
            if !run.isBaseline {
                return [Violation(Bugs.followIgnoresCancel, "its task was cancelled, and it is still following")]
            }
            let lesson = run.steps.isEmpty ? Bugs.noLiveUpdates : Bugs.feedNeverEnds
            return [Violation(lesson, "followFavorites() was still suspended after \(run.steps.count) line(s) showed")]
        }
        guard let point = run.cancelAfter else {
            return followKept(end, got: followLines, dropped: false, "followFavorites()")
        }
        var violations = drawnRight(end, "cancelled")
        if end.ending != .returned, end.ending != .cancelled {
            violations.append(Violation(Bugs.followIgnoresCancel, "its task was cancelled, and \(end.ending)"))
        }
        if !run.stepsAfterCancel.isEmpty {
            violations.append(Violation(Bugs.followIgnoresCancel, "after the cancel, \(run.stepsAfterCancel)"))
        }
        // It had connected (a line showed): cancelling it hangs up.
        if point > 0, let feed = world.feeds.withLock({ $0.first }), !(await hangsUp(feed)) {
            violations.append(
                Violation(Bugs.followIgnoresCancel, "its task was cancelled; the feed is still connected"))
        }
        return violations
    }
    report.record()
}

/// One line of a generated feed: an update of photo 1, 2 or 3, or a malformed line.
struct FeedLine: Sendable, CustomStringConvertible {
    /// The photo, or nil for a malformed line.
    let photo: Int?
    let favorites: Int

    var text: String { photo.map { update("\($0)", favorites) } ?? malformedLine }
    var description: String {
        photo.map { "the server sends photo \($0) at \(favorites) favorites" } ?? "the server sends a malformed line"
    }
}

/// followFavorites on generated feeds, against the contract's model: after each line, the
/// screen shows the latest count of each photo so far and the number of malformed lines. Each
/// line is sent once the one before it shows.
private let followSequences = ModelCheck<FeedLine, FavoritesSnapshot>(
    "followFavorites on a generated feed", lesson: Bugs.noLiveUpdates, length: 6,
    generate: { random in
        random.below(4) == 0
            ? FeedLine(photo: nil, favorites: 0) : FeedLine(photo: random.below(3) + 1, favorites: random.below(100))
    },
    simplify: { line in line.photo.map { $0 > 1 ? [FeedLine(photo: $0 - 1, favorites: line.favorites)] : [] } ?? [] },
    real: { lines in
        let world = FeedWorld()
        let feed = world.openFeed()
        let screen = SimulatedScreen<FavoritesSnapshot>()
        let model = await MainActor.run { FavoritesModel(screen: screen) }
        let following = Task.detached {
            try await followFavorites(from: world.server.baseURL, using: world.session, into: model)
        }
        var shown: [FavoritesSnapshot] = []
        for (index, line) in lines.enumerated() {
            feed.send(line.text)
            guard case .finished = await withinHangLimit(hangLimit, { await screen.draws.reach(index + 1) }) else {
                break
            }
            shown.append(screen.frames[index].content)
        }
        feed.finish()
        following.cancel()
        return shown
    },
    model: { lines in lines.indices.map { snapshot(of: lines[...$0].map(\.text)) } })

// MARK: favoriteEventLines, the producer

private let producerLines = ["a", "b", "c"]

/// What a consumer of favoriteEventLines got: its lines and how its loop ended.
struct Consumption: Sendable, CustomStringConvertible {
    var lines: [String] = []
    var ending = Ending.returned

    /// What the consumer got, and how its loop ended.
    var summary: String { "the consumer got \(lines), then its loop \(ending)" }

    var description: String { "(\(summary))" }
}

/// Every failure point of a feed of three lines: the connection drops at each line and at
/// the end; then a new stream on the same session.
private func exploreProducerFailures() async {
    let report = await exploreFailurePoints(
        "favoriteEventLines, the feed sending \(producerLines), then ending, the connection dropping once",
        world: { plan in FeedWorld(plan: plan) },
        operation: { world in
            world.script(producerLines, breaking: .dropped, ends: true)
            var consumed = Consumption()
            do {
                for try await line in favoriteEventLines(from: world.server.baseURL, using: world.session) {
                    consumed.lines.append(line)
                }
            } catch {
                consumed.ending = Ending(error)
            }
            return consumed
        }
    ) { run, _ in
        let expected = received(producerLines, failingCall: run.failingCall, breaking: .dropped)
        var violations: [Violation] = []
        let runs: [(Result<Consumption, any Error>?, (lines: [String], dropped: Bool), String)] = [
            (run.outcome, expected, "the consumer"), (run.recovery, (producerLines, false), "a new stream"),
        ]
        for (got, want, when) in runs {
            guard case .success(let consumed)? = got else {
                let lesson = want.dropped ? Bugs.errorSwallowed : Bugs.streamNeverFinishes
                violations.append(Violation(lesson, "\(when): the loop was still waiting after the feed had ended"))
                continue
            }
            let observed = "\(when): \(consumed.summary); the server sent \(want.lines)"
            if consumed.lines != want.lines {
                violations.append(Violation(Bugs.linesLost, observed))
            }
            if consumed.ending != (want.dropped ? .connectionLost : .returned) {
                violations.append(Violation(want.dropped ? Bugs.errorSwallowed : Bugs.linesLost, observed))
            }
        }
        return violations
    }
    report.record()
}

/// Every cancel point of a consumer of favoriteEventLines: the consumer's task is cancelled
/// before it starts, or right after it took a line (the next line is sent only after that).
private func exploreProducerCancels() async {
    let report = await exploreCancelPoints(
        "favoriteEventLines, the feed sending \(producerLines), each once the consumer took the one before it",
        world: { probe in
            let world = FeedWorld(probe: probe)
            world.openFeed(first: producerLines[0])
            return world
        },
        operation: { world in
            let feed = world.feeds.withLock { $0[0] }
            var consumed = Consumption()
            do {
                for try await line in favoriteEventLines(from: world.server.baseURL, using: world.session) {
                    consumed.lines.append(line)
                    world.probe.step("the consumer took \"\(line)\"")
                    guard !world.probe.cancelMade else { continue }
                    let taken = consumed.lines.count
                    if taken < producerLines.count { feed.send(producerLines[taken]) } else { feed.finish() }
                }
            } catch {
                consumed.ending = Ending(error)
            }
            return consumed
        }
    ) { run, world in
        guard case .success(let consumed)? = run.outcome else {
            let when = run.isBaseline ? "the feed ended" : "the consumer's task was cancelled"
            return [Violation(Bugs.streamNeverFinishes, "\(when); the consumer's loop is still waiting")]
        }
        let observed = "\(consumed.summary); the server sent \(producerLines)"
        guard let point = run.cancelAfter else {
            return consumed.lines == producerLines && consumed.ending == .returned
                ? [] : [Violation(Bugs.linesLost, observed)]
        }
        var violations: [Violation] = []
        // Cancelled, the loop may end either way; it got the lines sent so far, in order.
        if consumed.ending != .returned, consumed.ending != .cancelled {
            violations.append(Violation(Bugs.linesLost, observed))
        }
        if consumed.lines != Array(producerLines.prefix(consumed.lines.count)) || consumed.lines.count < point {
            violations.append(Violation(Bugs.linesLost, observed))
        }
        // It had connected (a line came): the consumer's cancel must reach the feed.
        if point > 0, let feed = world.feeds.withLock({ $0.first }) {
            if !(await hangsUp(feed)) {
                violations.append(
                    Violation(
                        Bugs.upstreamNotCancelled, "the consumer's task was cancelled; the feed is still connected")
                )
            } else if feed.send("late") {
                violations.append(Violation(Bugs.upstreamNotCancelled, "a line sent after the cancel was delivered"))
            }
        }
        return violations
    }
    report.record()
}

// MARK: firstPhoto(reaching:), stopping early

private let watchThreshold = 50
private let watchLines = [update("1", 10), update("2", 50), update("3", 60)]

/// The contract for one call of firstPhoto(reaching: 50) on a feed that sent `got` and then
/// stayed open, or dropped the connection after them.
private func watchKept(
    _ outcome: Result<FavoriteUpdate?, any Error>?, got: [String], dropped: Bool, feed: ScriptedLineStream?,
    _ when: String
) async -> [Violation] {
    let answer = got.lazy.compactMap { try? JSONDecoder().decode(FavoriteUpdate.self, from: Data($0.utf8)) }
        .first { $0.favorites >= watchThreshold }
    let observed = "\(when): \(describeOutcome(outcome))"
    guard let outcome else {
        let lesson = answer == nil ? Bugs.firstPhotoHidesDrop : Bugs.readsOnAfterAnswer
        return [Violation(lesson, "\(observed), after the lines \(got)\(dropped ? " and the dropped connection" : "")")]
    }
    guard let answer else {
        // No photo reached the threshold before the connection dropped: that error is the answer.
        if case .failure(let error) = outcome, Ending(error) == .connectionLost { return [] }
        return [Violation(Bugs.firstPhotoHidesDrop, "\(observed); the connection dropped after the lines \(got)")]
    }
    guard case .success(answer?) = outcome else {
        return [Violation(Bugs.wrongFirstPhoto, "\(observed); expected \(answer), from the lines \(got)")]
    }
    if !dropped, let feed, !(await hangsUp(feed)) {
        return [Violation(Bugs.feedNotHungUp, "\(when): it returned \(answer); the feed is still connected")]
    }
    return []
}

/// Every failure point of firstPhoto(reaching: 50) on a feed of three updates that stays
/// open: the connection drops at each line, or each line is malformed; then the same call again.
private func exploreWatchFailures(_ breaking: FeedBreak) async -> ExplorationReport {
    await exploreFailurePoints(
        "firstPhoto(reaching: \(watchThreshold)), the feed sending 10, 50 and 60 favorites, one line \(breaking)",
        world: { plan in FeedWorld(plan: plan) },
        operation: { world in
            world.script(watchLines, breaking: breaking, ends: false)
            return try await firstPhoto(reaching: watchThreshold, from: world.server.baseURL, using: world.session)
        }
    ) { run, world in
        let feeds = world.feeds.withLock { $0 }
        let expected = received(watchLines, failingCall: run.failingCall, breaking: breaking)
        return await watchKept(run.outcome, got: expected.lines, dropped: expected.dropped, feed: feeds.first, "it")
            + watchKept(run.recovery, got: watchLines, dropped: false, feed: feeds.dropFirst().first, "called again")
    }
}

/// Every cancel point of firstPhoto(reaching: 50): cancelled before the call, or once the feed
/// is connected and before any line (the lines are sent only after that step).
private func exploreWatchCancels() async -> ExplorationReport {
    await exploreCancelPoints(
        "firstPhoto(reaching: \(watchThreshold)), the feed sending 10, 50 and 60 favorites once connected",
        world: { probe in
            let world = FeedWorld(probe: probe)
            let feed = world.openFeed()
            // Left waiting if it never connects: the child process ends it.
            Task {
                await feed.connections.reach(1)
                probe.step("the feed is connected")
                guard !probe.cancelMade else { return }
                for line in watchLines { feed.send(line) }
            }
            return world
        },
        operation: { world in
            try await firstPhoto(reaching: watchThreshold, from: world.server.baseURL, using: world.session)
        }
    ) { run, world in
        let feed = world.feeds.withLock { $0[0] }
        guard run.cancelAfter != nil else {
            return await watchKept(run.outcome, got: watchLines, dropped: false, feed: feed, "it")
        }
        switch run.outcome {
        case nil:
            return [Violation(Bugs.firstPhotoIgnoresCancel, "its task was cancelled, and it is still watching")]
        case .success(nil)?:
            break
        case .failure(let error)? where Ending(error) == .cancelled:
            break
        case let outcome?:
            return [Violation(Bugs.firstPhotoIgnoresCancel, "its task was cancelled, and \(describeOutcome(outcome))")]
        }
        if run.cancelAfter != 0, !(await hangsUp(feed)) {
            return [Violation(Bugs.firstPhotoIgnoresCancel, "its task was cancelled; the feed is still connected")]
        }
        return []
    }
}

// MARK: The suite

/// A part of the contract, run in a child process of its own.
enum ContractPart: String, ChildScenario, CaseIterable {
    case follow, producer, watch

    func run() async {
        switch self {
        case .follow:
            await exploreFollowCancels()
            await exploreFollowFailures(.dropped)
            await exploreFollowFailures(.malformed)
            await followSequences.explore().record()
        case .producer:
            await exploreProducerFailures()
            await exploreProducerCancels()
        case .watch:
            // Side by side, each in a world of its own: on an unfixed firstPhoto each one waits
            // out a hang limit. The findings are recorded in the same order every time.
            async let cancels = exploreWatchCancels()
            async let dropped = exploreWatchFailures(.dropped)
            async let malformed = exploreWatchFailures(.malformed)
            for report in await [cancels, dropped, malformed] { report.record() }
        }
    }
}

/// Runs `part` in a child process, and explains a trap there as the chapter's crash lesson.
private func inChild(_ part: ContractPart, sourceLocation: SourceLocation = #_sourceLocation) async {
    if await sharedChild.ranShared(part, crash: Bugs.crashed, sourceLocation: sourceLocation) { return }
    let log = CrashLog()
    let run = await offThePool {
        await #expect(processExitsWith: .success, Bugs.crashed.comment, sourceLocation: sourceLocation) {
            [log = log as CrashLog, part = part as ContractPart] in
            await log.runScenario { await part.run() }
        }
    }
    log.explain(run, as: Bugs.crashed, sourceLocation: sourceLocation)
}

/// In CI's repeated runs, one child process runs every part (see `SharedChild`).
private let sharedChild = SharedChild<ContractPart> { log, parts in
    await #expect(processExitsWith: .success, SharedChild<ContractPart>.launchComment) {
        [log = log as CrashLog, parts = parts as [ContractPart]] in
        await log.runScenarios(parts) { await $0.run() }
    }
}

@Suite("Chapter 07: the contract at every cancel point and every broken line")
struct AsyncSequencesContractTests {
    @Test(
        "followFavorites, cancelled before the call or after any line, with the feed dropped or malformed at any line, or on generated feeds, keeps its contract",
        .exposesBug(Bugs.noLiveUpdates, Bugs.offMainActor, Bugs.malformedLineEndsFeed))
    func followEverywhere() async {
        await inChild(.follow)
    }

    @Test(
        "favoriteEventLines, its consumer cancelled before it starts or after any line, or the feed dropped at any line, keeps its contract",
        .exposesBug(Bugs.streamNeverFinishes, Bugs.errorSwallowed))
    func producerEverywhere() async {
        await inChild(.producer)
    }

    @Test(
        "firstPhoto(reaching:), cancelled before the call or while it waits, or with the feed dropped or malformed at any line, keeps its contract",
        .exposesBug(Bugs.readsOnAfterAnswer))
    func watchEverywhere() async {
        await inChild(.watch)
    }
}
