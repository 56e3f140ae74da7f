/// A count that the simulated world changes and tests can await.
///
/// Tests use it to know, without sleeping, that something has happened: "the wrapper has
/// called `login`", "two requests are in flight". It can go up and down (requests in
/// flight) and remembers its ``peak``. Pair a wait with a bounded wait from
/// `WorkbookTesting`, in case the awaited moment never comes.
public final class ObservedCount: Sendable {
    private struct Waiter {
        let isReady: @Sendable (Int) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }
    private struct State {
        var value = 0
        var peak = 0
        var waiters: [Waiter] = []
    }
    private let state = Locked(State())

    public init() {}

    /// The current count.
    public var value: Int { state.withLock { $0.value } }

    /// The highest the count has ever been.
    public var peak: Int { state.withLock { $0.peak } }

    /// Adds one and wakes the waiters that were waiting for the new value.
    public func increment() { change(by: 1) }

    /// Takes one away and wakes the waiters that were waiting for the new value.
    public func decrement() { change(by: -1) }

    /// Suspends until the count is at least `target`. Returns at once if it already is.
    public func reach(_ target: Int) async {
        await wait { $0 >= target }
    }

    /// Suspends until the count is at most `target`. Returns at once if it already is.
    public func fall(to target: Int) async {
        await wait { $0 <= target }
    }

    private func wait(until isReady: @escaping @Sendable (Int) -> Bool) async {
        await withCheckedContinuation { continuation in
            let alreadyThere = state.withLock { state -> Bool in
                if isReady(state.value) { return true }
                state.waiters.append(Waiter(isReady: isReady, continuation: continuation))
                return false
            }
            if alreadyThere { continuation.resume() }
        }
    }

    private func change(by delta: Int) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.value += delta
            state.peak = max(state.peak, state.value)
            let value = state.value
            let ready = state.waiters.filter { $0.isReady(value) }.map(\.continuation)
            state.waiters.removeAll { $0.isReady(value) }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }
}
