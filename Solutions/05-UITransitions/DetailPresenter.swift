import SimulatedWorld

/// Shows the detail screen of whatever the user tapped last, in place of the one before.
///
/// Only the latest tap counts: replacing the stored task cancels the one it replaces, so an
/// older detail that has not started its transition yet never appears.
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
        // Overwriting `task` would only drop our handle: the old task would run on, and
        // present its screen over the new one. Cancel it first.
        task?.cancel()
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
