import Synchronization

/// How many steps the instruments have seen scenarios in this process take: every bounded wait
/// whose operation finished, and every operation sequence run against a model.
///
/// ``PoolWatchdog`` counts a moving pulse as progress, as it counts a changed report line. An
/// exploration's report says what it explores, not which of its many runs it is in, so on a
/// busy machine its line can stay the same for longer than the watchdog's limit while its runs
/// go on. A stuck pool runs nothing, so the pulse stops with it.
enum ProgressPulse {
    private static let beats = Atomic<Int>(0)

    /// Counts one step.
    static func beat() {
        beats.add(1, ordering: .relaxed)
    }

    /// The steps counted so far.
    static var count: Int { beats.load(ordering: .relaxed) }
}
