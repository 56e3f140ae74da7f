import Dispatch

/// Whether the main actor was free while a piece of synchronous work ran (chapter 16).
///
/// CPU-heavy work in the simulated world asks the probe as it works. On the main queue (which
/// runs the main actor's jobs) the answer is immediate: the work itself holds the main actor.
/// Anywhere else, the probe schedules a tiny job on the main actor and waits for it to run:
/// if the main actor is free, it runs at once and the work goes on; if something holds the
/// main actor (a thread that waits, blocked, for this very work), the job can't run, and the
/// wait ends after a limit. Only that failure path pays the limit.
public enum MainActorProbe {
    /// What the probe saw.
    public enum Finding: String, Sendable, Hashable {
        /// The main actor ran the probe's job while the work was going on.
        case free
        /// The work itself was running on the main actor.
        case ranOnMainActor
        /// The work ran elsewhere, but the main actor could not run anything meanwhile.
        case mainActorBlocked
    }

    /// How long the probe waits for the main actor before it calls it blocked.
    public static let limit: Duration = .seconds(2)

    /// Checks the main actor from inside synchronous work. Blocks the caller for at most
    /// ``limit``, and only when the main actor can't run the probe's job.
    ///
    /// A job that already waited out the limit and still hasn't run proves that the main actor
    /// is still blocked: while there is one, the answer is immediate.
    public static func check() -> Finding {
        if MainQueue.isCurrent { return .ranOnMainActor }
        if stuck.withLock({ $0 }) > 0 { return .mainActorBlocked }
        let ran = DispatchSemaphore(value: 0)
        let job = Locked(JobState.waiting)
        Task { @MainActor in
            let wasStuck = job.withLock { state in
                defer { state = .ran }
                return state == .stuck
            }
            if wasStuck { stuck.withLock { $0 -= 1 } }
            ran.signal()
        }
        let (seconds, attoseconds) = limit.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        if ran.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success { return .free }
        let stillWaiting = job.withLock { state in
            guard state == .waiting else { return false }
            state = .stuck
            return true
        }
        if stillWaiting { stuck.withLock { $0 += 1 } }
        return stillWaiting ? .mainActorBlocked : .free
    }

    private enum JobState: Sendable { case waiting, stuck, ran }

    /// Probe jobs that waited out the limit and have not run yet.
    private static let stuck = Locked(0)
}
