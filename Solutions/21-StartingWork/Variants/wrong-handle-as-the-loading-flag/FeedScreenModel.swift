import SimulatedWorld

/// The model of a feed screen: a Refresh button, a Cancel button, a spinner, the posts and an
/// error message.
@MainActor
public final class FeedScreenModel {
    /// Whether the screen shows its spinner.
    public private(set) var isLoading = false
    /// The posts on screen.
    public private(set) var posts: [String] = []
    /// The error message on screen, if the last refresh failed.
    public private(set) var errorMessage: String?
    /// The load started by the last refresh that started one, kept so that Cancel can reach it.
    public private(set) var loadTask: Task<Void, Never>?

    private let service: FeedService

    public init(service: FeedService) {
        self.service = service
    }

    /// The user tapped Refresh.
    public func refreshTapped() {
        guard loadTask == nil else { return }
        isLoading = true
        loadTask = Task.immediate(name: "Refresh feed") { [weak self] in
            await self?.load()
        }
    }

    /// The user tapped Cancel.
    public func cancelTapped() {
        loadTask?.cancel()
        loadTask = nil
        isLoading = false
    }

    /// The load itself: a main-actor method, so the immediate task reaches it without a hop.
    private func load() async {
        do {
            let posts = try await service.fetchFeed()
            if Task.isCancelled { return }
            self.posts = posts
            errorMessage = nil
        } catch {
            // Cancel already took this load off the screen.
            if Task.isCancelled { return }
            errorMessage = "Couldn't load the feed."
        }
        isLoading = false
        loadTask = nil
    }
}
