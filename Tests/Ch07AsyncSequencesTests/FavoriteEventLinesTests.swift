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

/// What a consumer got out of the stream: its lines, and the error that ended it, if any.
private struct Consumed: Sendable {
    var lines: [String] = []
    var error: (any Error)?
}

/// Reads the whole stream; returns only when the stream finishes.
private func consumeAll(_ lines: AsyncThrowingStream<String, any Error>) async -> Consumed {
    var consumed = Consumed()
    do {
        for try await line in lines { consumed.lines.append(line) }
    } catch {
        consumed.error = error
    }
    return consumed
}

/// How a consumer stops listening early.
enum EarlyStop: String, CaseIterable, Codable, Sendable, CustomTestStringConvertible {
    case breakOutOfTheLoop = "breaks out of its loop"
    case cancelTheConsumingTask = "is cancelled"
    var testDescription: String { rawValue }
}

/// The scenarios, each run by one test in a child process.
private enum FeedScenario {
    static func streamFinishes() async {
        let server = SimulatedHTTPServer()
        let feed = server.stream(at: "/favorites/live")
        let session = SimulatedURLSession(server: server)
        for line in ["a", "b", "c"] { feed.send(line) }
        feed.finish()
        let result = await awaitResult(
            of: { await consumeAll(favoriteEventLines(from: server.baseURL, using: session)) },
            orRecord: Bugs.streamNeverFinishes)
        if let consumed = result?.value {
            #expect(consumed.lines == ["a", "b", "c"], Bugs.linesLost.comment)
            #expect(consumed.error == nil, Bugs.linesLost.comment)
        }
    }

    static func errorReachesTheConsumer() async {
        let server = SimulatedHTTPServer()
        let feed = server.stream(at: "/favorites/live")
        let session = SimulatedURLSession(server: server)
        feed.send("a")
        feed.fail(with: URLError(.networkConnectionLost))
        let result = await awaitResult(
            of: { await consumeAll(favoriteEventLines(from: server.baseURL, using: session)) },
            orRecord: Bugs.errorSwallowed)
        if let consumed = result?.value {
            #expect(consumed.lines == ["a"], Bugs.linesLost.comment)
            #expect(
                (consumed.error as? URLError)?.code == .networkConnectionLost,
                Bugs.errorSwallowed.comment("The loop ended with: \(consumed.error.map { "\($0)" } ?? "no error")"))
        }
    }

    static func linesWaitForABusyConsumer() async {
        let server = SimulatedHTTPServer()
        let feed = server.stream(at: "/favorites/live")
        let session = SimulatedURLSession(server: server)
        let received = Locked<[String]>([])
        let busyWithFirstLine = ObservedCount()
        let (goOn, letConsumerGoOn) = AsyncStream.makeStream(of: Void.self)
        feed.send("1")
        let consumer = Task {
            for try await line in favoriteEventLines(from: server.baseURL, using: session) {
                let count = received.withLock { lines -> Int in
                    lines.append(line)
                    return lines.count
                }
                if count == 1 {
                    // Busy with the first line: no next() until the test says so.
                    busyWithFirstLine.increment()
                    for await _ in goOn { break }
                }
                if count == 4 { break }
            }
        }
        await awaitResult(of: { await busyWithFirstLine.reach(1) }, orRecord: Bugs.linesLost)
        for line in ["2", "3", "4"] { feed.send(line) }
        // The feed's delegate has handed all four lines to the stream while the consumer was busy.
        await awaitResult(of: { await feed.delegateCallbacks.reach(4) }, orRecord: Bugs.linesLost)
        letConsumerGoOn.yield()
        if case .stillSuspended = await withinHangLimit(hangLimit, { try await consumer.value }) {
            Bugs.linesDropped.record(
                "The consumer has \(received.withLock { $0 }) and is waiting for more; the server sent [\"1\", \"2\", \"3\", \"4\"]."
            )
            return
        }
        let lines = received.withLock { $0 }
        #expect(
            lines == ["1", "2", "3", "4"],
            Bugs.linesDropped.comment("The consumer got \(lines); the server sent [\"1\", \"2\", \"3\", \"4\"]."))
    }

    static func earlyStopCancelsTheFeed(stop: EarlyStop) async {
        let server = SimulatedHTTPServer()
        let feed = server.stream(at: "/favorites/live")
        let session = SimulatedURLSession(server: server)
        let firstLineSeen = ObservedCount()
        feed.send("a")
        let consumer = Task {
            // The stream is made here, so that only this loop holds it.
            for try await _ in favoriteEventLines(from: server.baseURL, using: session) {
                firstLineSeen.increment()
                if stop == .breakOutOfTheLoop { break }
            }
        }
        await awaitResult(of: { await firstLineSeen.reach(1) }, orRecord: Bugs.linesLost)
        if stop == .cancelTheConsumingTask { consumer.cancel() }
        await awaitResult(of: { try await consumer.value }, orRecord: Bugs.linesLost)

        await awaitResult(of: { await server.cancellations.reach(1) }, orRecord: Bugs.upstreamNotCancelled)
        #expect(!feed.isConnected, Bugs.upstreamNotCancelled.comment("The connection is still open."))
        let delivered = feed.send("late")
        #expect(!delivered, Bugs.upstreamNotCancelled.comment("A line sent afterwards was still delivered."))
    }
}

/// The scenarios as values, so that CI's repeated runs can run them all in one child process
/// (`SharedChild`).
private enum FeedCase: ChildScenario {
    case streamFinishes, errorReachesTheConsumer
    case earlyStopCancelsTheFeed(EarlyStop)
    case linesWaitForABusyConsumer

    static let everyScenario: [FeedCase] =
        [.streamFinishes, .errorReachesTheConsumer] + EarlyStop.allCases.map { .earlyStopCancelsTheFeed($0) }
        + [.linesWaitForABusyConsumer]

    func run() async {
        switch self {
        case .streamFinishes: await FeedScenario.streamFinishes()
        case .errorReachesTheConsumer: await FeedScenario.errorReachesTheConsumer()
        case .earlyStopCancelsTheFeed(let stop): await FeedScenario.earlyStopCancelsTheFeed(stop: stop)
        case .linesWaitForABusyConsumer: await FeedScenario.linesWaitForABusyConsumer()
        }
    }

    /// Runs this scenario in a child process, and explains a trap there as the chapter's crash lesson.
    func runInChildProcess(sourceLocation: SourceLocation = #_sourceLocation) async {
        if await Self.sharedChild.ranShared(self, crash: Bugs.crashed, sourceLocation: sourceLocation) { return }
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .success, Bugs.crashed.comment, sourceLocation: sourceLocation) {
                [log = log as CrashLog, scenario = self as FeedCase] in
                await log.runScenario { await scenario.run() }
            }
        }
        log.explain(run, as: Bugs.crashed, sourceLocation: sourceLocation)
    }

    /// In CI's repeated runs, one child process runs every scenario.
    static let sharedChild = SharedChild<FeedCase> { log, scenarios in
        await #expect(processExitsWith: .success, SharedChild<FeedCase>.launchComment) {
            [log = log as CrashLog, scenarios = scenarios as [FeedCase]] in
            await log.runScenarios(scenarios) { await $0.run() }
        }
    }
}

@Suite("Chapter 07: favoriteEventLines() wraps a delegate feed in an AsyncThrowingStream")
struct FavoriteEventLinesTests {
    // Each scenario runs in a child process (an exit test), with a thread pool of its own:
    // the bounded waits then measure the code under test, not other tests' load.

    @Test("The consumer gets every line, and its loop ends when the feed ends", .exposesBug(Bugs.streamNeverFinishes))
    func streamFinishes() async {
        await FeedCase.streamFinishes.runInChildProcess()
    }

    @Test("The feed's error is thrown to the consumer", .exposesBug(Bugs.errorSwallowed))
    func errorReachesTheConsumer() async {
        await FeedCase.errorReachesTheConsumer.runInChildProcess()
    }

    @Test(
        "When the consumer stops early, the feed is cancelled and delivers nothing more",
        .exposesBug(Bugs.upstreamNotCancelled), arguments: EarlyStop.allCases)
    func earlyStopCancelsTheFeed(stop: EarlyStop) async {
        await FeedCase.earlyStopCancelsTheFeed(stop).runInChildProcess()
    }

    @Test("Lines that arrive while the consumer is busy wait for it: none is dropped")
    func linesWaitForABusyConsumer() async {
        await FeedCase.linesWaitForABusyConsumer.runInChildProcess()
    }
}
