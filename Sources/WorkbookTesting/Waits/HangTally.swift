import SimulatedWorld

/// Counts the bounded waits that gave up while an exploration run was in progress.
///
/// A run in which a wait hung has already paid the hang limit, and a type that hangs once
/// usually hangs in the runs after it too. So the exploration instruments stop after a run that
/// hung and broke a promise: the learner has a reproducer, and a wrong fix that hangs
/// everywhere fails in a second or two instead of paying the limit for every point, order
/// and seed. Every wait of the workbook (``withinHangLimit(_:progress:_:)``,
/// ``awaitResult(of:within:orRecord:sourceLocation:)``) reports to the tally bound for the
/// task that waits, through a task-local value, so the chapters' own waits count too.
public final class HangTally: Sendable {
    private let count = Locked(0)

    /// The tally of the run in progress, if an instrument bound one.
    @TaskLocal static var current: HangTally?

    /// How many bounded waits have given up so far.
    public var hangs: Int { count.withLock { $0 } }

    func noteHang() { count.withLock { $0 += 1 } }

    /// Runs `body` with a fresh tally bound, and returns its result and whether a wait hung.
    static func counting<Value>(_ body: () async throws -> Value) async rethrows -> (value: Value, hung: Bool) {
        let tally = HangTally()
        let value = try await $current.withValue(tally) { try await body() }
        return (value, tally.hangs > 0)
    }
}

extension ExplorationReport {
    /// The line that says why the exploration stopped early: after a run that hung.
    static let stoppedAfterHang =
        "(The runs after this one were skipped: it hung, and each of them would wait out the hang limit.)"
}
