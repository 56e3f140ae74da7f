import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ends a child process whose cooperative thread pool is stuck, and says why.
///
/// Swift's tasks run on a small pool of threads, about one per core and priority. Code that
/// blocks a pool thread while it waits for other async work (a `DispatchSemaphore.wait()`
/// for a `Task`, say) deadlocks the process once every thread of the pool is blocked that
/// way. From then on nothing async runs in that process: not the awaited work, and not the
/// timer of a bounded wait (``withinHangLimit(_:_:)``) either. Only a plain thread, outside
/// the pool, can still notice.
///
/// So a scenario that may block the pool runs in an exit test, inside
/// ``guarding(limit:report:_:)``. A plain `Thread` waits for the scenario for at most
/// `limit`; if the scenario has not returned by then, it writes ``marker`` and `report()` to
/// standard error (the ``CrashLog``) and ends the child at once with ``exitStatus``. In the
/// parent, ``CrashLog/explain(_:as:poolStalled:sourceLocation:)`` turns that into a lesson.
/// A scenario that returns disarms the watchdog: the limit is paid only on the failure path.
///
/// ```swift
/// let log = CrashLog()
/// let run = await offThePool {
///     await #expect(processExitsWith: .success, lesson.comment) { [log = log as CrashLog] in
///         await log.runScenario {
///             try await PoolWatchdog.guarding(report: { "what had happened by then" }) {
///                 // … many tasks at every priority call the code under test …
///             }
///         }
///     }
/// }
/// log.explain(run, as: crashLesson, poolStalled: lesson)
/// ```
public enum PoolWatchdog {
    /// The exit status of a child process that the watchdog ended.
    public static let exitStatus: CInt = 86

    /// The line the watchdog writes to standard error before it ends the child.
    static let marker = "[workbook] pool watchdog: "

    /// How long a scenario may go without progress before the watchdog ends it, unless the
    /// caller says. A scenario that does not block the pool moves every few milliseconds:
    /// chapter 17's solution passed with 0.3 s under Thread Sanitizer, with another test run
    /// beside it. A stuck pool costs the learner this long, so it is no longer than it needs.
    public static let defaultLimit: Duration = .seconds(1)

    /// How many limits in all a scenario that keeps making progress may take.
    public static let progressAllowance = 10

    /// The task priorities a scenario should start its callers at, so that every group of
    /// pool threads is busy. On Linux each priority has threads of its own (one Dispatch
    /// global queue per quality of service), and Apple platforms also give a higher quality
    /// of service threads when a lower one is saturated: blocking the callers of one
    /// priority leaves a `Task` started at another priority free to run.
    public static let priorities: [TaskPriority] = [.background, .low, .medium, .high]

    /// How many callers per priority are sure to occupy every pool thread of that priority,
    /// with some left waiting: one per processor, plus two. The pool has at most one thread
    /// per processor for each priority (`activeProcessorCount` on Apple platforms, the
    /// processors online on Linux; the larger of the two counts covers both).
    public static var callersPerPriority: Int {
        let info = ProcessInfo.processInfo
        return max(info.activeProcessorCount, info.processorCount) + 2
    }

    /// In a child process: runs `scenario` while a plain thread watches it. If `scenario` makes
    /// no progress for `limit`, the watchdog writes ``marker`` followed by `report()` (one
    /// line: what had happened by then) to standard error and ends the process with
    /// ``exitStatus``, without running exit handlers (they could wait for the stuck pool).
    ///
    /// Progress is what `report()` says, and the instruments' pulse (``ProgressPulse``: a bounded
    /// wait that finished, a sequence run against a model): while the line changes (another
    /// round finished, say) or the pulse moves, the scenario is moving, however slowly a busy
    /// machine runs it, and the limit starts again, up to ``progressAllowance`` times in all. A
    /// stuck pool changes nothing, so it is ended `limit` after its last step. The limit is
    /// slept in short ticks, one after the other, so that a stall of the whole machine costs
    /// one tick, not the whole limit.
    /// Start the scenario's callers with `Task.detached(priority:)` and wait for them with a
    /// count, not with a task group: a parent that awaits its children raises their priority
    /// to its own, and they would all share the threads of that one priority.
    public static func guarding(
        limit: Duration = defaultLimit,
        report: @escaping @Sendable () -> String,
        _ scenario: () async throws -> Void
    ) async rethrows {
        let disarmed = Alarm()
        let ticks = 30
        let tick = (limit / ticks) / .seconds(1)
        let watchdog = Thread {
            var lastReport = report()
            var lastPulse = ProgressPulse.count
            var quietTicks = 0
            for _ in 0..<(ticks * progressAllowance) {
                Thread.sleep(forTimeInterval: tick)
                if disarmed.isSet { return }
                let (now, pulse) = (report(), ProgressPulse.count)
                quietTicks = now == lastReport && pulse == lastPulse ? quietTicks + 1 : 0
                (lastReport, lastPulse) = (now, pulse)
                if quietTicks >= ticks { break }
            }
            let said = lastReport.replacingOccurrences(of: "\n", with: " ")
            let line = marker + "The scenario made no progress for \(limit), so the watchdog ended it. \(said)\n"
            let bytes = Array(line.utf8)
            _ = bytes.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            _exit(exitStatus)
        }
        watchdog.start()
        defer { disarmed.set() }
        try await scenario()
    }

    /// What the watchdog wrote in `log`, if it ended the child.
    static func report(in log: String) -> String? {
        log.split(separator: "\n").first { $0.hasPrefix(marker) }.map { String($0.dropFirst(marker.count)) }
    }

    /// A flag the scenario sets once, read by the watchdog thread.
    private final class Alarm: Sendable {
        private let flag = Atomic<Bool>(false)
        var isSet: Bool { flag.load(ordering: .acquiring) }
        func set() { flag.store(true, ordering: .releasing) }
    }
}

extension CrashLog {
    /// In the parent, after an exit test whose scenario ran inside
    /// ``PoolWatchdog/guarding(limit:report:_:)``: if the watchdog ended the child, records
    /// `poolStalled` with the watchdog's report (and removes the log); otherwise does what
    /// ``explain(_:as:sourceLocation:)`` does with `lesson`.
    public func explain(
        _ run: ExitTest.Result?, as lesson: Lesson, poolStalled: Lesson,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let report = PoolWatchdog.report(in: contents) else {
            explain(run, as: lesson, sourceLocation: sourceLocation)
            return
        }
        try? FileManager.default.removeItem(atPath: path)
        poolStalled.record(report, sourceLocation: sourceLocation)
    }
}
