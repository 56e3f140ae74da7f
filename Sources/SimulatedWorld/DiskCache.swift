/// A simulated disk cache of thumbnails that records where each write ran.
///
/// ``write(_:)`` is synchronous, like a file write: it blocks whoever calls it. Called from
/// the main actor, it would freeze the screen for as long as the disk takes. Each write
/// records whether it ran on the main actor (see ``MainQueue``) and the priority of
/// the task that ran it, so tests can check both.
public final class DiskCache: Sendable {
    /// One write, as the cache saw it.
    public struct Write: Sendable, Equatable {
        /// The thumbnail written.
        public let id: String
        /// Whether the write ran on the main actor.
        public let onMainActor: Bool
        /// `Task.currentPriority` during the write.
        public let priority: TaskPriority
    }

    private let entries = Locked<[Write]>([])

    /// How many writes have happened; tests await it.
    public let writeCount = ObservedCount()

    public init() {}

    /// Every write so far, in order.
    public var writes: [Write] { entries.withLock { $0 } }

    /// Writes `thumbnail` to the cache, blocking the caller until it is done.
    public func write(_ thumbnail: Thumbnail) {
        let write = Write(
            id: thumbnail.id, onMainActor: MainQueue.isCurrent, priority: Task.currentPriority)
        entries.withLock { $0.append(write) }
        writeCount.increment()
    }
}
