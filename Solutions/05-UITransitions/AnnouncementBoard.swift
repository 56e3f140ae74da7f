import SimulatedWorld

/// Shows each announcement that arrives as a screen of its own, replacing the one before.
///
/// The board owns its task and the task does not own the board: it holds `self` weakly, and
/// the board cancels the task when it goes away, which ends the wait for announcements.
@MainActor
public final class AnnouncementBoard {
    private let host: ScreenHost
    private let announcements: AsyncStream<String>
    /// The task that shows announcements, once ``start()`` has run.
    public private(set) var task: Task<Void, Never>?

    public init(host: ScreenHost, announcements: AsyncStream<String>) {
        self.host = host
        self.announcements = announcements
    }

    deinit {
        task?.cancel()
    }

    /// Starts showing announcements as they arrive.
    public func start() {
        task = Task { [weak self, announcements] in
            for await title in announcements {
                // Strong only for one announcement; while waiting for the next, the board is free to go.
                guard let self else { return }
                try? await self.show(title)
            }
        }
    }

    private func show(_ title: String) async throws {
        if host.topScreen != nil {
            try await host.dismissAsync()
        }
        try await host.presentAsync(Screen(title))
        host.note("showing \(title)")
    }
}
