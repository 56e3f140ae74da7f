import Synchronization

/// A counter that the simulated world bumps and tests can await.
///
/// Tests use it to know, without sleeping, that something has happened: for example
/// "the wrapper has called `login`", before they act as the user. Pair a wait with a
/// bounded wait from `WorkbookTesting`, in case the event never comes.
public final class ObservedCount: Sendable {
    private struct State {
        var value = 0
        var waiters: [(target: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }
    private let state = Mutex(State())

    public init() {}

    /// The current count.
    public var value: Int { state.withLock { $0.value } }

    /// Adds one and wakes the waiters whose target is now reached.
    public func increment() {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.value += 1
            let value = state.value
            let ready = state.waiters.filter { $0.target <= value }.map(\.continuation)
            state.waiters.removeAll { $0.target <= value }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// Suspends until the count is at least `target`. Returns at once if it already is.
    public func reach(_ target: Int) async {
        await withCheckedContinuation { continuation in
            let alreadyThere = state.withLock { state -> Bool in
                if state.value >= target { return true }
                state.waiters.append((target, continuation))
                return false
            }
            if alreadyThere { continuation.resume() }
        }
    }
}
