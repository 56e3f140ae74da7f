import SimulatedWorld

/// Shows the detail screen of whatever the user tapped last, in place of the one before.
///
/// Exercise: one tap works. Run `swift test --filter Ch05UITransitionsTests` to see what a
/// quick second tap does.
@MainActor
public final class DetailPresenter {
    private let host: ScreenHost
    /// The task showing the latest detail, once ``show(_:)`` has run.
    public private(set) var task: Task<Void, Never>?

    public init(host: ScreenHost) {
        self.host = host
    }

    /// Shows the detail screen for `title`: dismisses the one on screen, if any, then
    /// presents the new one.
    public func show(_ title: String) {
        task = Task {
            do {
                if host.topScreen != nil {
                    try await host.dismissAsync()
                }
                try await host.presentAsync(Screen(title))
                host.note("showing \(title)")
            } catch {
                // Cancelled: a newer detail has taken over.
            }
        }
    }
}
