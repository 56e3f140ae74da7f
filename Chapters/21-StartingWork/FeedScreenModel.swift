import SimulatedWorld

/// The model of a feed screen: a Refresh button, a Cancel button, a spinner, the posts and an
/// error message.
///
/// Exercise: tap Refresh in the app and it seems to work. Run
/// `swift run workbook check 21` (or `swift test --filter Ch21StartingWorkTests`) to see
/// what the screen shows in the moment after a tap, what a double tap sends, and what a tap
/// on Cancel right after Refresh leaves behind.
/// Read Chapters/21-StartingWork/README.md first.
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
        loadTask = Task {
            isLoading = true
            defer { isLoading = false }
            do {
                posts = try await service.fetchFeed()
                errorMessage = nil
            } catch is CancellationError {
                // The user cancelled: nothing to show.
            } catch {
                errorMessage = "Couldn't load the feed."
            }
        }
    }

    /// The user tapped Cancel.
    public func cancelTapped() {
        loadTask?.cancel()
        isLoading = false
    }
}
