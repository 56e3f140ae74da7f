import Dispatch
import SimulatedWorld

/// The photo feed's counters: how many thumbnails the cache had, and how many it had to fetch.
///
/// The feed's loading tasks record them from async code. The debug overlay and the log read
/// them from synchronous code (a draw call, a `description`), so every method here is
/// synchronous.
///
/// Exercise: the counts are right. Run `swift run workbook check 17` (or
/// `swift test --filter Ch17LocksAndAtomicsTests`) to see what happens when many tasks count
/// at once. Read Chapters/17-LocksAndAtomics/README.md first.
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

    /// The counts, in an actor so that no two tasks can change them at the same time.
    private actor Counts {
        var current = Snapshot()

        func addHit() { current.hits += 1 }
        func addMiss() { current.misses += 1 }
    }

    private let counts = Counts()

    public init() {}

    /// Counts a thumbnail the cache already had.
    public func recordHit() {
        waitFor { await $0.addHit() }
    }

    /// Counts a thumbnail the cache had to fetch.
    public func recordMiss() {
        waitFor { await $0.addMiss() }
    }

    /// The counts now, including everything recorded before this call.
    public var snapshot: Snapshot {
        waitFor { await $0.current }
    }

    /// Runs `operation` on the actor and waits for it, so that callers stay synchronous and
    /// a snapshot always includes the counts recorded before it.
    private func waitFor<Value: Sendable>(_ operation: @escaping @Sendable (Counts) async -> Value) -> Value {
        let done = DispatchSemaphore(value: 0)
        let result = Locked<Value?>(nil)
        Task { [counts] in
            let value = await operation(counts)
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }
}
