/// A progress bar from a UI framework written before Swift concurrency, like `UIProgressView`
/// once was: a class that is not `Sendable` and says nothing about actors, so the compiler
/// lets any code call it. Its documentation says "main thread only".
///
/// Instead of trapping, it records for each update whether it ran on the main actor (the way
/// the Main Thread Checker reports UIKit calls off the main thread). On Linux
/// `Thread.isMainThread` is false even on the main actor, so it asks the main dispatch queue,
/// which runs the main actor's jobs.
public final class ProgressBar {
    /// One update of the bar.
    public struct Update: Sendable, Equatable, CustomStringConvertible {
        /// How many steps were done.
        public let completed: Int
        /// How many steps there are.
        public let total: Int
        /// Whether the update ran on the main actor.
        public let onMainActor: Bool

        public var description: String { "\(completed) of \(total)" }
    }

    /// Every update so far, in order.
    public private(set) var updates: [Update] = []

    /// Called with each update, right after it is recorded, on the thread that made it. Tests
    /// use it to look at the rest of the simulated world at the moment of an update.
    public var onUpdate: ((Update) -> Void)?

    public init() {}

    /// Shows `completed` of `total` steps done. Main thread only.
    public func setProgress(_ completed: Int, of total: Int) {
        let update = Update(completed: completed, total: total, onMainActor: MainQueue.isCurrent)
        updates.append(update)
        onUpdate?(update)
    }
}
