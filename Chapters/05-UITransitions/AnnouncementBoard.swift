import SimulatedWorld

/// Shows each announcement that arrives as a screen of its own, replacing the one before.
///
/// Exercise: the board works while it is on screen. Run
/// `swift run workbook check 05` (or `swift test --filter Ch05UITransitionsTests`) to see what
/// happens when the app lets go of it.
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

    /// Starts showing announcements as they arrive.
    public func start() {
        task = Task {
            for await title in announcements {
                try? await show(title)
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
