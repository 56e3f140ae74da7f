/// The app's list of live screens, on the main actor, in the role of a notification center
/// that screens sign up with.
///
/// A screen registers when it is made and must unregister when it goes away; a screen left
/// registered after it is gone is a stale entry that later broadcasts would reach. The
/// registry remembers every registration and unregistration, in order, so a test can ask
/// what happened at the moment it released a screen.
@MainActor
public final class ScreenRegistry {
    /// One change to the registry.
    public enum Change: Equatable, Sendable {
        case registered(String)
        case unregistered(String)
    }

    /// Every change, oldest first.
    public private(set) var changes: [Change] = []
    private var live: [String: Int] = [:]
    private let unregistrations = ObservedCount()

    public init() {}

    /// Signs `screen` up. A screen may register more than once (two screens of one match
    /// share nothing but their name); each registration needs its own unregistration.
    public func register(_ screen: String) {
        live[screen, default: 0] += 1
        changes.append(.registered(screen))
    }

    /// Signs `screen` off, once.
    public func unregister(_ screen: String) {
        changes.append(.unregistered(screen))
        if let count = live[screen] { live[screen] = count > 1 ? count - 1 : nil }
        unregistrations.increment()
    }

    /// Whether `screen` is registered (more often than it unregistered).
    public func isRegistered(_ screen: String) -> Bool { live[screen] != nil }

    /// How many times `screen` unregistered.
    public func unregistrationCount(of screen: String) -> Int {
        changes.filter { $0 == .unregistered(screen) }.count
    }

    /// Suspends until the registry has seen at least `count` unregistrations in all.
    /// Pair it with a bounded wait: a screen that never unregisters never ends the wait.
    public nonisolated func waitForUnregistrations(_ count: Int) async {
        await unregistrations.reach(count)
    }
}
