import Dispatch

/// Tells whether code is running on the main dispatch queue, which runs the main actor's
/// jobs, without trapping: the simulated world records it, and tests check it.
///
/// `Thread.isMainThread` is false under `swift test` on Linux even for work the main queue
/// runs, so the workbook marks the main queue with a queue-specific value instead and asks
/// for it: only blocks run by the main queue (and main-actor jobs, which the main queue runs)
/// see it.
public enum MainQueue {
    /// Whether the caller is running on the main queue.
    public static var isCurrent: Bool {
        DispatchQueue.getSpecific(key: marker.key) == true
    }

    /// Suspends until the main queue has run every block enqueued before this call.
    ///
    /// The main queue is serial and first-in, first-out, so once a block enqueued now has
    /// run, so has anything code hopped onto it earlier with `DispatchQueue.main.async`.
    public static func drain() async {
        await withCheckedContinuation { continuation in
            DispatchQueue.main.async { continuation.resume() }
        }
    }

    /// The key, set on the main queue the first time anyone asks (global lets are initialised once).
    private static let marker: Marker = {
        let marker = Marker()
        DispatchQueue.main.setSpecific(key: marker.key, value: true)
        return marker
    }()

    private final class Marker: @unchecked Sendable {
        // Only read after initialisation; DispatchSpecificKey is an identity, never mutated.
        let key = DispatchSpecificKey<Bool>()
    }
}
