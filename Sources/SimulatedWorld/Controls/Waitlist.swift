/// Tasks suspended in a simulated service until the service resumes them, each under a ticket,
/// with the cancellation of a waiting task handled: the machinery of ``Gate``, ``SearchServer``
/// and ``ThumbnailService``. (``ManualClock`` spells the same machinery out in its own
/// `sleep(until:tolerance:)`: chapter 19's reading shows it to learners as an example.)
///
/// A waitlist lives inside its owner's locked state, so that deciding whether a task must wait
/// and parking it happen under one lock (see ``Locked/wait(in:ticket:tag:cancellation:unlessNow:then:)``).
/// A task cancelled before it is parked is remembered by its ticket and never parks; a task
/// cancelled while parked leaves the list and throws.
public struct Waitlist<Value: Sendable, Tag: Sendable>: Sendable {
    /// One parked task.
    public struct Waiter: Sendable {
        /// The ticket the task took before it parked.
        public let ticket: Int
        /// What the owner keeps about the waiting task, for example the request it made.
        public let tag: Tag
        /// Resumes the task.
        public let continuation: CheckedContinuation<Value, any Error>
    }

    /// The parked tasks, in the order they parked.
    public fileprivate(set) var waiters: [Waiter] = []
    private var cancelledBeforeWaiting: Set<Int> = []
    private var nextTicket = 0

    public init() {}

    /// A new ticket, taken (under the owner's lock) before the task parks.
    public mutating func takeTicket() -> Int {
        defer { nextTicket += 1 }
        return nextTicket
    }

    /// Whether no task is parked.
    public var isEmpty: Bool { waiters.isEmpty }

    /// Removes and returns the task that has waited longest, if there is one.
    public mutating func removeFirst() -> Waiter? { waiters.isEmpty ? nil : waiters.removeFirst() }

    /// Removes and returns the first parked task that `matches`, if there is one.
    public mutating func remove(where matches: (Waiter) -> Bool) -> Waiter? {
        guard let index = waiters.firstIndex(where: matches) else { return nil }
        return waiters.remove(at: index)
    }

    /// Removes and returns every parked task that `matches`, in the order they parked.
    public mutating func removeAll(where matches: (Waiter) -> Bool = { _ in true }) -> [Waiter] {
        let removed = waiters.filter(matches)
        waiters.removeAll(where: matches)
        return removed
    }

    fileprivate mutating func wasCancelledBeforeWaiting(_ ticket: Int) -> Bool {
        cancelledBeforeWaiting.remove(ticket) != nil
    }

    fileprivate mutating func cancel(_ ticket: Int) -> Waiter? {
        if let waiter = remove(where: { $0.ticket == ticket }) { return waiter }
        cancelledBeforeWaiting.insert(ticket)
        return nil
    }
}

/// What happened to a waitlist, for ``Locked/wait(in:ticket:tag:cancellation:unlessNow:then:)``'s `then`.
public enum WaitlistChange: Sendable {
    /// The task parked.
    case parked
    /// The task left the list because it was cancelled.
    case left
}

extension Locked {
    /// Parks the calling task on the waitlist at `list` under `ticket`, until the owner resumes
    /// it, unless `now` (run under the lock first) gives its outcome at once. Throws
    /// `cancellation()` if the task is cancelled before or while it waits.
    ///
    /// - Parameters:
    ///   - then: run under the lock after the task parked, or left the list on a cancel; what it
    ///     returns runs outside the lock (for example, resuming tasks that wait for a count).
    public func wait<Value: Sendable, Tag: Sendable>(
        in list: WritableKeyPath<State, Waitlist<Value, Tag>> & Sendable, ticket: Int, tag: Tag,
        cancellation: @Sendable () -> any Error,
        unlessNow now: (inout State) -> Result<Value, any Error>? = { _ in nil },
        then: @Sendable (inout State, WaitlistChange) -> (@Sendable () -> Void)? = { _, _ in nil }
    ) async throws -> Value {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let (early, afterward) = withLock { state -> (Result<Value, any Error>?, (@Sendable () -> Void)?) in
                    if state[keyPath: list].wasCancelledBeforeWaiting(ticket) { return (.failure(cancellation()), nil) }
                    if let early = now(&state) { return (early, nil) }
                    state[keyPath: list].waiters.append(
                        Waitlist.Waiter(ticket: ticket, tag: tag, continuation: continuation))
                    return (nil, then(&state, .parked))
                }
                if let early { continuation.resume(with: early) }
                afterward?()
            }
        } onCancel: {
            let (waiter, afterward) = withLock { state -> (Waitlist<Value, Tag>.Waiter?, (@Sendable () -> Void)?) in
                guard let waiter = state[keyPath: list].cancel(ticket) else { return (nil, nil) }
                return (waiter, then(&state, .left))
            }
            waiter?.continuation.resume(throwing: cancellation())
            afterward?()
        }
    }
}
