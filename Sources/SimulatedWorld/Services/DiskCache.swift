/// A simulated disk cache of thumbnails that records where each write ran.
///
/// ``write(_:)`` is synchronous, like a file write: it blocks whoever calls it. Called from
/// the main actor, it would freeze the screen for as long as the disk takes. Each write
/// records whether it ran on the main actor (see ``MainQueue``) and the priority of
/// the task that ran it, so tests can check both.
///
/// ``save(_:)`` is the async write: it waits for the disk, which a test can hold
/// (``holdSaves()``), and a save whose task is cancelled while it waits writes nothing. The
/// cache counts the saves that started and the ones that ended, written or dropped.
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
    private let disk = Gate(closed: false)
    private let dropped = Locked<[String]>([])

    /// How many writes have happened; tests await it.
    public let writeCount = ObservedCount()
    /// How many ``save(_:)`` calls have started.
    public let savesStarted = ObservedCount()
    /// How many ``save(_:)`` calls have ended: written, or dropped by a cancel.
    public let savesEnded = ObservedCount()

    public init() {}

    /// Every write so far, in order.
    public var writes: [Write] { entries.withLock { $0 } }

    /// The ids of the saves that were dropped because their task was cancelled, in order.
    public var droppedSaves: [String] { dropped.withLock { $0 } }

    /// From now on, saves wait for the disk until ``releaseSaves()``.
    public func holdSaves() { disk.close() }

    /// Lets the waiting saves (and every later one) reach the disk.
    public func releaseSaves() { disk.open() }

    /// Writes `thumbnail` to the cache the way an async file write does: it suspends until
    /// the disk is ready, then writes. If its task is cancelled before that, it writes nothing
    /// and throws `CancellationError`.
    public func save(_ thumbnail: Thumbnail) async throws {
        savesStarted.increment()
        defer { savesEnded.increment() }
        do {
            try await disk.pass()
        } catch {
            dropped.withLock { $0.append(thumbnail.id) }
            throw error
        }
        write(thumbnail)
    }

    /// Writes `thumbnail` to the cache, blocking the caller until it is done.
    public func write(_ thumbnail: Thumbnail) {
        let write = Write(
            id: thumbnail.id, onMainActor: MainQueue.isCurrent, priority: Task.currentPriority)
        entries.withLock { $0.append(write) }
        writeCount.increment()
    }
}
