/// The simulated search backend of chapter 19.
///
/// Each call to ``search(_:)`` is one request. A request waits for the test to answer it with
/// ``reply(_:)``: results, or one of the errors in ``SearchServerError``. A reply that comes
/// while no request is waiting is kept for the next request, which then gets it at once.
/// A request whose task is cancelled, before or while it waits, throws `CancellationError`
/// and is counted in ``cancelled``: that is how the tests see that a timeout cancelled the
/// request it gave up on. Deterministic: nothing here depends on timing.
public final class SearchServer: Sendable {
    /// What the server answers to one request.
    public enum Reply: Sendable, Equatable {
        /// The results of the search.
        case results([String])
        /// The server is overloaded: ``SearchServerError/busy``. Worth asking again later.
        case busy
        /// The query can't be searched: ``SearchServerError/badQuery``. Asking again won't help.
        case badQuery
    }

    private struct State {
        var queries: [String] = []
        var waitlist = Waitlist<Reply, Void>()
        var queuedReplies: [Reply] = []
    }

    private let state = Locked(State())

    /// Every request made, whatever became of it.
    public let requests = ObservedCount()
    /// Requests waiting for a reply right now.
    public let waiting = ObservedCount()
    /// Requests that ended with `CancellationError`, because their task was cancelled.
    public let cancelled = ObservedCount()
    /// Requests that got a reply (results or an error).
    public let answered = ObservedCount()

    public init() {}

    /// The query of every request, in the order they were made.
    public var queries: [String] { state.withLock { $0.queries } }

    /// Answers the request that has waited longest, or, if none is waiting, the next request.
    public func reply(_ reply: Reply) {
        let waiter = state.withLock { state -> Waitlist<Reply, Void>.Waiter? in
            guard !state.waitlist.isEmpty else {
                state.queuedReplies.append(reply)
                return nil
            }
            waiting.decrement()
            return state.waitlist.removeFirst()
        }
        waiter?.continuation.resume(returning: reply)
    }

    /// Searches for `query`: waits for the test's reply, then returns the results or throws
    /// the error it chose. Throws `CancellationError` if the task is cancelled first.
    public func search(_ query: String) async throws -> [String] {
        let id = state.withLock { state -> Int in
            state.queries.append(query)
            return state.queries.count - 1
        }
        requests.increment()
        let reply: Reply
        do {
            try Task.checkCancellation()
            reply = try await state.wait(
                in: \.waitlist, ticket: id, tag: (), cancellation: { CancellationError() },
                unlessNow: { state in state.queuedReplies.isEmpty ? nil : .success(state.queuedReplies.removeFirst()) },
                then: { [waiting] _, change in
                    switch change {
                    case .parked: waiting.increment()
                    case .left: waiting.decrement()
                    }
                    return nil
                })
        } catch {
            cancelled.increment()
            throw error
        }
        answered.increment()
        switch reply {
        case .results(let results): return results
        case .busy: throw SearchServerError.busy
        case .badQuery: throw SearchServerError.badQuery
        }
    }
}

/// The errors the simulated search server answers with.
public enum SearchServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server is overloaded; the same request may succeed a little later.
    case busy
    /// The query can't be searched; asking again gives the same answer.
    case badQuery

    public var description: String {
        switch self {
        case .busy: "SearchServerError.busy (the server is overloaded)"
        case .badQuery: "SearchServerError.badQuery (the query can't be searched)"
        }
    }
}
