import Dispatch

/// The completion handlers the simulated services have scheduled and not yet finished
/// calling, across the whole process.
///
/// A wrong wrapper often goes wrong *after* the caller got its answer: a callback resumes the
/// continuation once, then again a moment later. A scenario that ends as soon as the caller
/// has its answer could end the process before the second resume traps, and pass. So the
/// services schedule their callbacks here, and a scenario waits (bounded) for the count to
/// fall to zero before it counts as finished: a callback that traps then traps every time.
public enum ScheduledCallbacks {
    /// Scheduled and not yet returned.
    public static let inFlight = ObservedCount()

    /// Runs `callback` on `queue`, counted in ``inFlight`` from now until it returns.
    public static func schedule(on queue: DispatchQueue, _ callback: @escaping @Sendable () -> Void) {
        inFlight.increment()
        queue.async {
            callback()
            inFlight.decrement()
        }
    }

    /// Suspends until every scheduled callback has returned.
    public static func drained() async {
        await inFlight.fall(to: 0)
    }
}
