import Synchronization

/// The photo feed's counters: how many thumbnails the cache had, and how many it had to fetch.
///
/// The feed's loading tasks record them from async code. The debug overlay and the log read
/// them from synchronous code (a draw call, a `description`), so every method here is
/// synchronous.
///
/// Right fix: one `Mutex` around the whole snapshot. Each record is one short critical
/// section that reads and writes, and a snapshot's two counts always agree.
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

    private let counts = Mutex(Snapshot())

    public init() {}

    /// Counts a thumbnail the cache already had.
    public func recordHit() {
        counts.withLock { $0.hits += 1 }
    }

    /// Counts a thumbnail the cache had to fetch.
    public func recordMiss() {
        counts.withLock { $0.misses += 1 }
    }

    /// The counts now, including everything recorded before this call.
    public var snapshot: Snapshot {
        counts.withLock { $0 }
    }
}
