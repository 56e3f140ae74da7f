/// The simulated background jobs that follow a loaded thumbnail: store it in the cache,
/// write a log line, add it to the search index.
///
/// Each job records, as it starts, whether it runs on the main actor and at which priority
/// (`Task.currentPriority`). With ``holdJobs()`` the jobs wait at a ``Gate`` after starting,
/// so a test can cancel them in flight; a job that sees its task's cancellation throws
/// `CancellationError` and counts in ``cancelled``.
public final class BackgroundJobs: Sendable {
    /// The three jobs.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case cache, log, index
    }

    /// One job as it started.
    public struct Start: Sendable, Equatable {
        public let kind: Kind
        /// The thumbnail the job was for.
        public let id: String
        /// Whether the job started on the main actor.
        public let onMainActor: Bool
        /// `Task.currentPriority` when the job started.
        public let priority: TaskPriority
    }

    private let gate: Gate
    private let log = Locked<[Start]>([])

    /// Jobs that have started, whatever became of them.
    public let started = ObservedCount()
    /// Jobs started and not yet finished or cancelled. Its `peak` is the most at once.
    public let inFlight = ObservedCount()
    /// Jobs that ran to the end.
    public let finished = ObservedCount()
    /// Jobs that saw their task's cancellation.
    public let cancelled = ObservedCount()

    /// Jobs that run through at once, or wait after starting if `holding` is true.
    public init(holding: Bool = false) {
        gate = Gate(closed: holding)
    }

    /// From now on, jobs wait after starting until ``releaseAll()`` or a cancel.
    public func holdJobs() { gate.close() }

    /// Lets every waiting job finish, and stops holding new ones.
    public func releaseAll() { gate.open() }

    /// Every job that has started, in order.
    public var starts: [Start] { log.withLock { $0 } }

    /// Runs job `kind` for `thumbnail`.
    ///
    /// Like a `nonisolated(nonsending)` function (SE-0461), it runs on the caller's actor:
    /// called from the main actor, the job runs on the main actor.
    public func run(
        _ kind: Kind, for thumbnail: Thumbnail, isolation: isolated (any Actor)? = #isolation
    ) async throws {
        let start = Start(
            kind: kind, id: thumbnail.id, onMainActor: MainQueue.isCurrent,
            priority: Task.currentPriority)
        log.withLock { $0.append(start) }
        started.increment()
        inFlight.increment()
        defer { inFlight.decrement() }
        do {
            try await gate.pass()
        } catch {
            cancelled.increment()
            throw error
        }
        finished.increment()
    }
}
