import Foundation
import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch17LocksAndAtomicsSolution
#else
    import Ch17LocksAndAtomics
#endif

private let reading = ChapterReading("17-LocksAndAtomics")

/// What can go wrong in this chapter, in the learner's words.
enum Bugs {
    static let cacheBlocksPool = reading.lesson(
        "ThumbnailCache.thumbnail(for:) blocks the threads of the cooperative pool",
        "it waits for the fetch with the thread it runs on (a semaphore, a spin loop, a DispatchQueue.sync, a lock held while the fetch runs); once every pool thread waits like that, no thread is left to run the fetches, and the whole process stops. Await the fetch instead, with no lock held",
        section: "A semaphore in async code")
    static let metricsBlocksPool = reading.lesson(
        "FeedMetrics blocks the threads of the cooperative pool",
        "recordHit(), recordMiss() and snapshot are synchronous and wait, with the thread they run on, for work on an actor; called from many tasks at once, they block every pool thread, and the actor's work never runs. Counters that synchronous code reads need an atomic or a lock, not an actor",
        section: "When synchronous access is right")
    static let lookupWaitsForFetch = reading.lesson(
        "ThumbnailCache.cachedThumbnail(for:) waits for a fetch",
        "the lock around the cache's dictionary is held while a thumbnail is fetched, so a cell's synchronous lookup of a thumbnail already cached waits for the network; take the lock only to read or write the dictionary, never across a fetch",
        section: "Mutex: short and synchronous")
    static let wrongThumbnail = reading.lesson(
        "ThumbnailCache gave the wrong answer",
        "thumbnail(for:) must return the service's thumbnail for that id, and cachedThumbnail(for:) the one kept for it (nil until one was fetched)",
        section: "The feed's cache and counters")
    static let fetchedAgain = reading.lesson(
        "ThumbnailCache fetched a cached thumbnail again",
        "once thumbnail(for:) has fetched a thumbnail, the next call for the same id must return the kept one without asking the service",
        section: "The feed's cache and counters")
    static let failureHidden = reading.lesson(
        "ThumbnailCache hid a failed fetch",
        "when the service fails, thumbnail(for:) must throw its error and keep nothing, so that the next call tries again",
        section: "The feed's cache and counters")
    static let wrongCounts = reading.lesson(
        "FeedMetrics lost or invented counts",
        "every recordHit() and recordMiss() must count exactly once, whatever thread calls it, and snapshot must include everything recorded before it; a read and a write in two steps (a load then a store, two withLock calls) lose the updates of whoever came in between",
        section: "Atomic counters")
    static let neverReturns = reading.lesson(
        "a call never returned",
        "the awaiting task was still suspended at the end of the bounded wait, while the pool still had threads free",
        section: "The feed's cache and counters")
    static let crashed = reading.lesson(
        "the scenario's process crashed",
        "the child process that ran this scenario died before the scenario ended; the next issue says what the runtime reported",
        section: "The feed's cache and counters")
}

/// The chapter's scenarios. Each runs in a child process (an exit test) under the pool
/// watchdog: code that blocks every thread of the cooperative pool stops everything async in
/// its process, bounded waits included, and must not stop the test run.
enum Scenario: String, ChildScenario, CaseIterable {
    case cacheServesWhatItFetched
    case failedFetchIsNotKept
    case lookupDuringFetch
    case cacheManyCallers
    case metricsCountFromThreads
    case metricsManyCallers
    case contractModels
    case contractFailurePoints
    case contractAnswerOrders

    /// The lesson for a pool that the watchdog found stuck in this scenario.
    var stalledLesson: Lesson {
        switch self {
        case .metricsCountFromThreads, .metricsManyCallers: Bugs.metricsBlocksPool
        default: Bugs.cacheBlocksPool
        }
    }

    /// Runs this scenario in a child process and records what went wrong there.
    func runInChildProcess(sourceLocation: SourceLocation = #_sourceLocation) async {
        if await Self.sharedChild.ranShared(self, crash: Bugs.crashed, sourceLocation: sourceLocation) { return }
        let log = CrashLog()
        let comment = stalledLesson.comment
        let run = await offThePool {
            await #expect(processExitsWith: .success, comment, sourceLocation: sourceLocation) {
                [log = log as CrashLog, scenario = self as Scenario] in
                await log.runScenario {
                    await scenario.run()
                }
            }
        }
        log.explain(run, as: Bugs.crashed, poolStalled: stalledLesson, sourceLocation: sourceLocation)
    }

    /// In CI's repeated runs, one child process runs every scenario (see `SharedChild`).
    private static let sharedChild = SharedChild<Scenario> { log, scenarios in
        await #expect(processExitsWith: .success, SharedChild<Scenario>.launchComment) {
            [log = log as CrashLog, scenarios = scenarios as [Scenario]] in
            await log.runScenarios(scenarios) { await $0.run() }
        }
    }

    /// How long the scenario may go without progress before the watchdog ends it. Counting from
    /// plain threads can't block the pool: there the watchdog only ends a deadlock, so it gives
    /// threads that a crowded machine runs little (a right fix's once went a second without a
    /// step in a variant round) more time.
    var watchdogLimit: Duration {
        self == .metricsCountFromThreads ? .seconds(3) : PoolWatchdog.defaultLimit
    }

    /// In the child: plays the scenario.
    func run() async {
        let progress = ScenarioProgress()
        await PoolWatchdog.guarding(limit: watchdogLimit, report: { progress.report }) {
            switch self {
            case .cacheServesWhatItFetched: await cacheServesWhatItFetched(progress)
            case .failedFetchIsNotKept: await failedFetchIsNotKept(progress)
            case .lookupDuringFetch: await lookupDuringFetch(progress)
            case .cacheManyCallers: await cacheManyCallers(progress)
            case .metricsCountFromThreads: await metricsCountFromThreads(progress)
            case .metricsManyCallers: await metricsManyCallers(progress)
            case .contractModels: await contractModels(progress)
            case .contractFailurePoints: await contractFailurePoints(progress)
            case .contractAnswerOrders: await contractAnswerOrders(progress)
            }
        }
    }
}

/// What a scenario had done when the watchdog looked: one line, for the failure message.
final class ScenarioProgress: Sendable {
    private let describe = Locked<@Sendable () -> String>({ "The scenario had not started yet." })

    /// The line, with the numbers as they are now.
    var report: String { describe.withLock { $0 }() }

    /// From now on, the watchdog reports what `describe` says.
    func report(_ describe: @escaping @Sendable () -> String) { self.describe.withLock { $0 = describe } }
}

/// Runs `body` on a plain thread of its own, outside the cooperative pool, as synchronous
/// code (a draw call, a delegate callback) would. Returns its result, or nil, with `lesson`
/// recorded, if it has not returned within the hang limit.
func onPlainThread<Value: Sendable>(
    orRecord lesson: Lesson, _ detail: String,
    _ body: @escaping @Sendable () -> Value,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> Value? {
    let result = Locked<Value?>(nil)
    let returned = ObservedCount()
    Thread {
        let value = body()
        result.withLock { $0 = value }
        returned.increment()
    }.start()
    if case .stillSuspended = await withinHangLimit(hangLimit, { await returned.reach(1) }) {
        lesson.record(detail, sourceLocation: sourceLocation)
        return nil
    }
    return result.withLock { $0 }
}

/// Starts `count` callers at each of the watchdog's priorities, in detached tasks (not in a
/// task group, whose waiting parent would raise them all to its own priority), each running
/// `call` with its number. Returns the count of callers that have returned.
func startCallersAtEveryPriority(
    _ call: @escaping @Sendable (_ number: Int) async -> Void
) -> (returned: ObservedCount, total: Int) {
    let perPriority = PoolWatchdog.callersPerPriority
    let returned = ObservedCount()
    var number = 0
    for priority in PoolWatchdog.priorities {
        for _ in 0..<perPriority {
            let caller = number
            Task.detached(priority: priority) {
                await call(caller)
                returned.increment()
            }
            number += 1
        }
    }
    return (returned, number)
}

/// Waits until every caller of ``startCallersAtEveryPriority(_:)`` has returned, or records
/// ``Bugs/neverReturns``. The limit is counted at the callers' lowest priority: on a busy
/// machine their threads get little of the processor, and that wait is not a hang.
@discardableResult
func awaitCallers(
    _ callers: (returned: ObservedCount, total: Int), sourceLocation: SourceLocation = #_sourceLocation
) async -> Result<Void, any Error>? {
    await awaitResult(
        of: { await callers.returned.reach(callers.total) }, orRecord: Bugs.neverReturns,
        timerPriority: PoolWatchdog.priorities.min(), sourceLocation: sourceLocation)
}
