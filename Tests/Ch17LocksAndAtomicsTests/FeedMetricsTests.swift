import Foundation
import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch17LocksAndAtomicsSolution
#else
    import Ch17LocksAndAtomics
#endif

@Suite("Chapter 17: the feed's metrics")
struct FeedMetricsTests {
    @Test("Counts recorded from several threads at once are exact, and read synchronously")
    func countsFromThreads() async {
        await Scenario.metricsCountFromThreads.runInChildProcess()
    }

    @Test(
        "Many tasks at every priority record and read at once: FeedMetrics never blocks the pool",
        .exposesBug(Bugs.metricsBlocksPool))
    func manyCallers() async {
        await Scenario.metricsManyCallers.runInChildProcess()
    }
}

// MARK: The scenarios, played in the child process

extension Scenario {
    func metricsCountFromThreads(_ progress: ScenarioProgress) async {
        let metrics = FeedMetrics()
        let threads = 4
        let (hitsEach, missesEach) = (200, 100)
        let done = ObservedCount()
        progress.report { "\(done.value) of the \(threads) threads that record had finished." }
        for _ in 0..<threads {
            Thread {
                for _ in 0..<hitsEach { metrics.recordHit() }
                for _ in 0..<missesEach { metrics.recordMiss() }
                done.increment()
            }.start()
        }
        guard await awaitResult(of: { await done.reach(threads) }, orRecord: Bugs.neverReturns) != nil else { return }
        let expected = FeedMetrics.Snapshot(hits: threads * hitsEach, misses: threads * missesEach)
        let snapshot = await onPlainThread(
            orRecord: Bugs.neverReturns,
            "snapshot never returned, read from a thread of its own after every count was recorded."
        ) { metrics.snapshot }
        if let snapshot, snapshot != expected {
            Bugs.wrongCounts.record(
                "\(threads) threads each recorded \(hitsEach) hits and \(missesEach) misses, one after the other;"
                    + " snapshot then said \"\(snapshot)\", not \"\(expected)\".")
        }
    }

    func metricsManyCallers(_ progress: ScenarioProgress) async {
        let metrics = FeedMetrics()
        let callers = startCallersAtEveryPriority { _ in
            metrics.recordHit()
            metrics.recordMiss()
            _ = metrics.snapshot
        }
        progress.report {
            "\(callers.returned.value) of the \(callers.total) tasks, started at once at every priority, had returned"
                + " from recordHit(), recordMiss() and snapshot."
        }
        guard await awaitResult(of: { await callers.returned.reach(callers.total) }, orRecord: Bugs.neverReturns) != nil
        else { return }
        let expected = FeedMetrics.Snapshot(hits: callers.total, misses: callers.total)
        let snapshot = await onPlainThread(
            orRecord: Bugs.neverReturns,
            "snapshot never returned, read from a thread of its own after every task had returned."
        ) { metrics.snapshot }
        if let snapshot, snapshot != expected {
            Bugs.wrongCounts.record(
                "\(callers.total) tasks each recorded one hit and one miss; snapshot then said \"\(snapshot)\", not \"\(expected)\"."
            )
        }
    }
}
