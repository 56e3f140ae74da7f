/// A live-score feed: one `AsyncStream` per subscriber, driven by the test.
///
/// `scores(for:)` opens a subscription; it stays open until the subscriber stops iterating
/// (its task is cancelled, or it breaks out) or the test ends the match. A subscription left
/// open after its screen is gone is a leak, and ``openSubscriptions`` shows it.
public final class ScoreFeed: Sendable {
    private let subscribers = Locked<[(id: Int, match: String, continuation: AsyncStream<String>.Continuation)]>([])
    private let nextID = Locked(0)
    private let open = ObservedCount()
    private let opened = ObservedCount()

    public init() {}

    /// A stream of `match`'s scores from now on. Iterating it keeps the subscription open.
    public func scores(for match: String) -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let id = nextID.withLock { next in
            next += 1
            return next
        }
        subscribers.withLock { $0.append((id, match, continuation)) }
        open.increment()
        opened.increment()
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.subscribers.withLock { $0.removeAll { $0.id == id } }
            self.open.decrement()
        }
        return stream
    }

    /// Sends `score` to every open subscription of `match`.
    public func send(_ score: String, to match: String) {
        let targets = subscribers.withLock { $0.filter { $0.match == match }.map(\.continuation) }
        for continuation in targets { continuation.yield(score) }
    }

    /// Ends `match`: every subscription of it finishes.
    public func finish(_ match: String) {
        let targets = subscribers.withLock { $0.filter { $0.match == match }.map(\.continuation) }
        for continuation in targets { continuation.finish() }
    }

    /// Subscriptions open now, in all.
    public var openSubscriptions: Int { open.value }

    /// Subscriptions ever opened, in all.
    public var subscriptionsOpened: Int { opened.value }

    /// Suspends until at most `count` subscriptions are open.
    public func waitUntilOpen(atMost count: Int) async { await open.fall(to: count) }

    /// Suspends until at least `count` subscriptions have ever been opened.
    public func waitUntilOpened(_ count: Int) async { await opened.reach(count) }
}
