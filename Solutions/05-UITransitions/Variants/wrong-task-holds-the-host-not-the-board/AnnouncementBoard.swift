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
        // The loop needs the host and the stream, not the board: capture those, and the board
        // weakly for its note only.
        task = Task { [weak self, host, announcements] in
            for await title in announcements {
                if host.topScreen != nil {
                    try? await host.dismissAsync()
                }
                guard (try? await host.presentAsync(Screen(title))) != nil else { continue }
                self?.note(title)
            }
        }
    }

    private func note(_ title: String) {
        host.note("showing \(title)")
    }
}
