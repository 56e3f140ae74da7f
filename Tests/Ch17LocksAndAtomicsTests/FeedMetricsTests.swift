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
        let (hitsEach, missesEach) = (1000, 500)
        // A lost update needs two threads inside one record at the same instant, which is
        // rare in any one round: play several rounds (more under `workbook check 17 --race`).
        // A right fix passes every round, so the verdict never depends on the timing.
        let rounds = raceRounds(ordinary: 10)
        let roundsDone = ObservedCount()
        // Progress for the watchdog is every count recorded, not every round: on a busy machine
        // a round of the exercise's 6,000 waits for the actor can take longer than its limit,
        // and with two test runs side by side even a thread's first 25 counts once did.
        let countsRecorded = ObservedCount()
        progress.report {
            "\(roundsDone.value) of the \(rounds) rounds of \(threads) threads recording had finished"
                + " (\(countsRecorded.value) counts recorded in all)."
        }
        for round in 1...rounds {
            let ready = ObservedCount()
            let done = ObservedCount()
            for _ in 0..<threads {
                Thread {
                    // Start together, so that the threads record at the same time, not one after the other.
                    ready.increment()
                    while ready.value < threads {}
                    for _ in 1...hitsEach {
                        metrics.recordHit()
                        countsRecorded.increment()
                    }
                    for _ in 1...missesEach {
                        metrics.recordMiss()
                        countsRecorded.increment()
                    }
                    done.increment()
                }.start()
            }
            // A generous limit: it is paid only if the threads never finish.
            let finished = await awaitResult(
                of: { await done.reach(threads) }, within: .seconds(20), orRecord: Bugs.neverReturns)
            guard finished != nil else { return }
            roundsDone.increment()
            let expected = FeedMetrics.Snapshot(hits: round * threads * hitsEach, misses: round * threads * missesEach)
            let snapshot = await onPlainThread(
                orRecord: Bugs.neverReturns,
                "snapshot never returned, read from a thread of its own after every count was recorded."
            ) { metrics.snapshot }
            if let snapshot, snapshot != expected {
                Bugs.wrongCounts.record(
                    "In each of \(round) round(s), \(threads) threads recorded \(hitsEach) hits and \(missesEach) misses each,"
                        + " all at the same time; snapshot then said \"\(snapshot)\", not \"\(expected)\".")
                return
            }
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
        guard await awaitCallers(callers) != nil
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
