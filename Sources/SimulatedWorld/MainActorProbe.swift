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
    public static func check() -> Finding {
        if MainQueue.isCurrent { return .ranOnMainActor }
        let ran = DispatchSemaphore(value: 0)
        Task { @MainActor in ran.signal() }
        let (seconds, attoseconds) = limit.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        return ran.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success ? .free : .mainActorBlocked
    }
}
