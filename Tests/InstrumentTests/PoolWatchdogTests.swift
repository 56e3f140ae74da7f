import Dispatch
import Foundation
import SimulatedWorld
import Testing

@testable import WorkbookTesting

private let stalledLesson = ChapterReading("00-Instruments").lesson(
    "the sample pool stall", "used to check the pool watchdog", section: "Nowhere")
private let crashLesson = ChapterReading("00-Instruments").lesson(
    "the sample crash", "used to check the pool watchdog", section: "Nowhere")

@Suite("Instruments: the pool watchdog")
struct PoolWatchdogTests {
    @Test("A scenario that blocks every pool thread is ended by the watchdog, and explained as a stall")
    func stuckPoolIsEnded() async {
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .exitCode(PoolWatchdog.exitStatus)) { [log = log as CrashLog] in
                await log.runScenario {
                    let blocked = ObservedCount()
                    await PoolWatchdog.guarding(
                        limit: .milliseconds(300), report: { "\(blocked.value) callers blocked" }
                    ) {
                        // Every caller waits, on its pool thread, for a task that needs a pool thread.
                        for priority in PoolWatchdog.priorities {
                            for _ in 0..<PoolWatchdog.callersPerPriority {
                                Task.detached(priority: priority) {
                                    let done = DispatchSemaphore(value: 0)
                                    Task { done.signal() }
                                    blocked.increment()
                                    done.wait()
                                    blocked.decrement()
                                }
                            }
                        }
                        await blocked.fall(to: -1)  // never: only the watchdog ends this
                    }
                }
            }
        }
        #expect(run != nil)
        #expect(PoolWatchdog.report(in: log.contents)?.contains("callers blocked") == true)
        withKnownIssue {
            log.explain(run, as: crashLesson, poolStalled: stalledLesson)
        } matching: { issue in
            stalledLesson.matches(issue) && issue.comments.contains { $0.rawValue.contains("callers blocked") }
        }
        #expect(!FileManager.default.fileExists(atPath: log.path), "explain removes the log")
    }

    @Test("A scenario that returns disarms the watchdog: the child exits at once, and nothing is recorded")
    func finishedScenarioIsLeftAlone() async {
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .success) { [log = log as CrashLog] in
                await log.runScenario {
                    await PoolWatchdog.guarding(report: { "unused" }) {
                        await Task.detached { () }.value
                    }
                }
            }
        }
        #expect(run != nil)
        log.explain(run, as: crashLesson, poolStalled: stalledLesson)
    }

    @Test("A scenario whose bounded waits keep finishing is left alone, though its report line never changes")
    func pulseIsProgress() async {
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .success) { [log = log as CrashLog] in
                await log.runScenario {
                    // The watchdog asks for the report once per tick (30 per limit). Each step
                    // waits for its next look, so the scenario spans three limits whatever the
                    // machine's speed, with a finished bounded wait at every tick or so.
                    let looks = ObservedCount()
                    await PoolWatchdog.guarding(
                        limit: .milliseconds(150),
                        report: {
                            looks.increment()
                            return "the same line every time"
                        }
                    ) {
                        for _ in 0..<90 {
                            let seen = looks.value
                            _ = await withinHangLimit { await looks.reach(seen + 1) }
                        }
                    }
                }
            }
        }
        #expect(run != nil)
        log.explain(run, as: crashLesson, poolStalled: stalledLesson)
    }

    @Test("Callers per priority exceed the processors")
    func sizing() {
        #expect(PoolWatchdog.callersPerPriority > ProcessInfo.processInfo.activeProcessorCount)
        #expect(Set(PoolWatchdog.priorities.map(\.rawValue)).count == PoolWatchdog.priorities.count)
    }
}
