import SimulatedWorld

@MainActor
public final class DetailPresenter {
    private let host: ScreenHost
    public private(set) var task: Task<Void, Never>?

    public init(host: ScreenHost) {
        self.host = host
    }

    public func show(_ title: String) {
        let previous = task
        task = Task {
            await previous?.value
            do {
                if host.topScreen != nil {
                    try await host.dismissAsync()
                }
                try await host.presentAsync(Screen(title))
                host.note("showing \(title)")
            } catch {}
        }
    }
}
