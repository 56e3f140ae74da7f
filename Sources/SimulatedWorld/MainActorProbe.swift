import Dispatch

/// Tells whether the calling code runs on the main actor, without trapping.
///
/// `MainActor.assertIsolated()` stops the process when it is wrong, and
/// `Thread.isMainThread` is false under `swift test` on Linux even on the main actor.
/// The main actor runs its jobs on the main dispatch queue, so the probe tags that queue
/// with a dispatch-specific value and looks for the tag. It checks where the code really
/// runs, not what the compiler believes, so the simulated world can record it.
public enum MainActorProbe {
    /// Whether the caller is running on the main actor (the main dispatch queue) right now.
    public static var isOnMainActor: Bool {
        DispatchQueue.getSpecific(key: tag.key) == true
    }

    /// Tags the main queue once, the first time anyone asks.
    private static let tag: Tag = {
        let tag = Tag()
        DispatchQueue.main.setSpecific(key: tag.key, value: true)
        return tag
    }()

    /// Holds the key. A key is only an identity: it is never changed after it is made.
    private final class Tag: @unchecked Sendable {
        let key = DispatchSpecificKey<Bool>()
    }
}
