import SimulatedWorld
import Synchronization

/// The photo feed's counters: how many thumbnails the cache had, and how many it had to fetch.
///
/// The feed's loading tasks record them from async code. The debug overlay and the log read
/// them from synchronous code (a draw call, a `description`), so every method here is
/// synchronous.
public final class FeedMetrics: Sendable {
    /// The counts at one moment.
    public struct Snapshot: Sendable, Hashable, CustomStringConvertible {
        /// Thumbnails the cache already had.
        public var hits: Int
        /// Thumbnails the cache had to fetch.
        public var misses: Int

        public init(hits: Int = 0, misses: Int = 0) {
            self.hits = hits
            self.misses = misses
        }

        public var description: String { "\(hits) hits, \(misses) misses" }
    }

    private let hits = Atomic<Int>(0)
    private let misses = Atomic<Int>(0)

    public init() {}

    /// Counts a thumbnail the cache already had.
    public func recordHit() {
        let seen = hits.load(ordering: .relaxed)
        hits.store(seen + 1, ordering: .relaxed)
    }

    /// Counts a thumbnail the cache had to fetch.
    public func recordMiss() {
        let seen = misses.load(ordering: .relaxed)
        misses.store(seen + 1, ordering: .relaxed)
    }

    /// The counts now, including everything recorded before this call. The two counts are
    /// read one after the other: a snapshot taken while others record may be one count
    /// ahead in either. (If they had to agree, a `Mutex` around the whole `Snapshot` would do it.)
    public var snapshot: Snapshot {
        Snapshot(hits: hits.load(ordering: .relaxed), misses: misses.load(ordering: .relaxed))
    }
}
