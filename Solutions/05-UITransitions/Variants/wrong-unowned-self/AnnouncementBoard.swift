import SimulatedWorld

@MainActor
public final class AnnouncementBoard {
    private let host: ScreenHost
    private let announcements: AsyncStream<String>
    public private(set) var task: Task<Void, Never>?

    public init(host: ScreenHost, announcements: AsyncStream<String>) {
        self.host = host
        self.announcements = announcements
    }

    deinit {
        task?.cancel()
    }

    public func start() {
        task = Task { [unowned self] in
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
