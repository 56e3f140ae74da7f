/// The simulated background jobs that follow a loaded thumbnail: store it in the cache,
/// write a log line, add it to the search index.
///
/// Each job records, as it starts, whether it runs on the main actor and at which priority
/// (`Task.currentPriority`). With ``holdJobs()`` the jobs wait at a ``Gate`` after starting,
/// so a test can cancel them in flight or let them end one at a time (``release(_:)``); a job that sees its task's cancellation throws
/// `CancellationError` and counts in ``cancelled``. With ``fail(_:)`` a test makes one job
/// throw ``BackgroundJobFailure`` while the others are still held.
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

    private let gates: [Kind: Gate]
    private let log = Locked<[Start]>([])
    private let failing = Locked<Set<Kind>>([])

    /// Jobs that have started, whatever became of them.
    public let started = ObservedCount()
    /// Jobs started and not yet finished or cancelled. Its `peak` is the most at once.
    public let inFlight = ObservedCount()
    /// Jobs that ran to the end.
    public let finished = ObservedCount()
    /// Jobs that saw their task's cancellation.
    public let cancelled = ObservedCount()
    /// Jobs that threw ``BackgroundJobFailure``.
    public let failed = ObservedCount()

    /// Jobs that run through at once, or wait after starting if `holding` is true.
    public init(holding: Bool = false) {
        gates = Dictionary(uniqueKeysWithValues: Kind.allCases.map { ($0, Gate(closed: holding)) })
    }

    /// From now on, jobs wait after starting until ``releaseAll()`` or a cancel.
    public func holdJobs() {
        for gate in gates.values { gate.close() }
    }

    /// Lets every waiting job finish, and stops holding new ones.
    public func releaseAll() {
        for gate in gates.values { gate.open() }
    }

    /// Lets the waiting `kind` job (and every later one) finish, while jobs of the other
    /// kinds stay held: a test can end the jobs one at a time, in the order it chooses.
    public func release(_ kind: Kind) {
        gates[kind]?.open()
    }

    /// Makes job `kind` fail: a `kind` job held now throws ``BackgroundJobFailure`` at
    /// once, and so does every later one, while jobs of the other kinds stay held.
    public func fail(_ kind: Kind) {
        _ = failing.withLock { $0.insert(kind) }
        gates[kind]?.open()
    }

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
            try await gates[kind]?.pass()
        } catch {
            cancelled.increment()
            throw error
        }
        if failing.withLock({ $0.contains(kind) }) {
            failed.increment()
            throw BackgroundJobFailure(kind: kind, id: thumbnail.id)
        }
        finished.increment()
    }
}

/// The error of a job that a test made fail with ``BackgroundJobs/fail(_:)``.
public struct BackgroundJobFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public let kind: BackgroundJobs.Kind
    /// The thumbnail the job was for.
    public let id: String

    public init(kind: BackgroundJobs.Kind, id: String) {
        self.kind = kind
        self.id = id
    }

    public var description: String { "the \(kind) job for \"\(id)\" failed" }
}
