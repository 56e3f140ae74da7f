import SimulatedWorld

/// The model of a feed screen: a Refresh button, a Cancel button, a spinner, the posts and an
/// error message.
///
/// Solution: the load starts at once, `Task.immediate`, so by the time `refreshTapped()`
/// returns, the spinner is on and the request is sent: a second tap sees the spinner, and a
/// Cancel right after cancels a request that exists. The task is named, so it can be told
/// apart in a debugger and in the service's log. A cancelled load leaves the screen alone:
/// Cancel has already turned the spinner off, and a newer load may own it by now.
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
        guard !isLoading else { return }  // A second tap while loading does nothing.
        // Runs on this turn of the main actor up to its first suspension (inside fetchFeed,
        // after the request is sent), then returns here.
        loadTask = Task.immediate(name: "Refresh feed") {
            isLoading = true
            // A cancelled load was taken off the screen by Cancel, and a newer load may own
            // the spinner by now: only a load that was not cancelled turns it off.
            defer { isLoading = false }
            do {
                let posts = try await service.fetchFeed()
                guard !Task.isCancelled else { return }
                self.posts = posts
                errorMessage = nil
            } catch is CancellationError {
                // The user cancelled: nothing to show.
            } catch {
                guard !Task.isCancelled else { return }
                errorMessage = "Couldn't load the feed."
            }
        }
    }

    /// The user tapped Cancel.
    public func cancelTapped() {
        loadTask?.cancel()  // The task turns the spinner off when it ends.
    }
}
