import SimulatedWorld

@MainActor
public final class DetailPresenter {
    private let host: ScreenHost
    public private(set) var task: Task<Void, Never>?
    private var generation = 0

    public init(host: ScreenHost) {
        self.host = host
    }

    public func show(_ title: String) {
        generation += 1
        let mine = generation
        task = Task {
            do {
                if host.topScreen != nil {
                    guard mine == generation else { return }
                    try await host.dismissAsync()
                }
                guard mine == generation else { return }
                try await host.presentAsync(Screen(title))
                host.note("showing \(title)")
            } catch {}
        }
    }
}
