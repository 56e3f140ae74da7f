/// A store's change log that notes which actor each change ran on.
///
/// A store calls ``record(_:isolation:)`` from each method that changes its state, leaving
/// `isolation` to its default, `#isolation`: the actor the calling method is isolated to,
/// or nil for nonisolated code. Tests read it to see whether every change ran on one actor.
public final class StockJournal: Sendable {
    /// One recorded change.
    public struct Entry: Sendable {
        /// What changed, for example `reserve apple`.
        public let change: String
        /// The actor the change ran on, or nil when it ran on none.
        public let isolation: (any Actor)?

        /// Whether the change ran on the main actor.
        public var onMainActor: Bool { isolation.map { $0 === MainActor.shared } ?? false }
    }

    private let log = Locked<[Entry]>([])

    public init() {}

    /// Notes `change`, made by code isolated to `isolation`.
    public func record(_ change: String, isolation: (any Actor)? = #isolation) {
        log.withLock { $0.append(Entry(change: change, isolation: isolation)) }
    }

    /// Every change, oldest first.
    public var entries: [Entry] { log.withLock { $0 } }
}
