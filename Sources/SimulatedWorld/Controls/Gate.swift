/// A gate where async work can be held until a test opens it, or until its task is cancelled.
///
/// While the gate is closed, ``pass()`` suspends. ``open()`` lets every waiter through and
/// keeps the gate open. Work whose task is cancelled while it waits, or that arrives in a
/// task that is already cancelled, throws `CancellationError`: that is how the simulated
/// world sees a cancel. Deterministic: nothing here depends on timing.
public final class Gate: Sendable {
    private struct State {
        var isClosed: Bool
        var waitlist = Waitlist<Void, Void>()
    }

    private let state: Locked<State>

    /// A gate, closed or open.
    public init(closed: Bool) {
        state = Locked(State(isClosed: closed))
    }

    /// From now on, work that reaches the gate waits.
    public func close() { state.withLock { $0.isClosed = true } }

    /// Lets every waiting piece of work through and leaves the gate open.
    public func open() {
        let waiters = state.withLock { state in
            state.isClosed = false
            return state.waitlist.removeAll()
        }
        for waiter in waiters { waiter.continuation.resume() }
    }

    /// Returns at once if the gate is open; otherwise waits until it opens.
    /// Throws `CancellationError` if the task is cancelled, before or while it waits.
    public func pass() async throws {
        try Task.checkCancellation()
        let pass = state.withLock { state -> Int? in
            guard state.isClosed else { return nil }
            return state.waitlist.takeTicket()
        }
        guard let pass else { return }
        try await state.wait(in: \.waitlist, ticket: pass, tag: (), cancellation: { CancellationError() }) { state in
            // Opened between taking a number and getting here: go through.
            state.isClosed ? nil : .success(())
        }
    }
}
