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
    /// Which load owns the screen: every refresh and every cancel starts a new generation.
    private var generation = 0

    public init(service: FeedService) {
        self.service = service
    }

    /// The user tapped Refresh.
    public func refreshTapped() {
        guard !isLoading else { return }
        generation += 1
        let mine = generation
        isLoading = true
        loadTask = Task.immediate(name: "Refresh feed") {
            let result: Result<[String], any Error>
            do {
                result = .success(try await service.fetchFeed())
            } catch {
                result = .failure(error)
            }
            // Only the load that still owns the screen may touch it.
            guard generation == mine else { return }
            switch result {
            case .success(let posts):
                self.posts = posts
                errorMessage = nil
            case .failure:
                errorMessage = "Couldn't load the feed."
            }
            isLoading = false
        }
    }

    /// The user tapped Cancel.
    public func cancelTapped() {
        generation += 1
        loadTask?.cancel()
        isLoading = false
    }
}
