import SimulatedWorld

/// The screen that shows one match's live score.
///
/// It signs up with the app's `ScreenRegistry` when it is made, and listens to the match on
/// the `ScoreFeed` once started. When the last reference to it goes away, it must stop
/// listening and sign off the registry, on the main actor, before the release returns.
@MainActor
public final class MatchScreen {
    /// The name the screen registers under: `match/` and the match.
    public let name: String
    /// The latest score shown, or nil before the first.
    public private(set) var score: String?

    private let match: String
    private let registry: ScreenRegistry
    private let feed: ScoreFeed
    private var listening: Task<Void, Never>?

    public init(match: String, registry: ScreenRegistry, feed: ScoreFeed) {
        self.match = match
        self.registry = registry
        self.feed = feed
        name = "match/\(match)"
        registry.register(name)
    }

    /// Starts showing the match's scores as the feed sends them. A second call does nothing.
    public func start() {
        guard listening == nil else { return }
        let scores = feed.scores(for: match)
        listening = Task { [weak self] in
            for await score in scores {
                self?.score = score
            }
        }
    }

    deinit {
        // The registry belongs to the main actor and a deinit is nonisolated, so the
        // unregistration goes to the main actor in a task.
        Task { @MainActor [registry, name] in
            registry.unregister(name)
        }
    }
}
