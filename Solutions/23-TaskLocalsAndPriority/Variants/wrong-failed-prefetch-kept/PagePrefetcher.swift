import SimulatedWorld

/// Loads the pages of a long list, and fetches the next ones ahead of time.
///
/// ``prefetch(_:)`` starts fetching a page at background priority, so the screen's own work
/// goes first. ``load(_:)`` returns a page: a prefetched one at once; one still being
/// prefetched by waiting for that prefetch (one backend call per page, never two), during
/// which the prefetch must run at the waiter's priority; any other by fetching it. A failed
/// prefetch hands its error to whoever waits for it and is forgotten.
///
/// Solution: each prefetch is a `Task` the actor keeps, and ``load(_:)`` waits with
/// `await prefetch.value`. The runtime knows who waits for whom, so it raises the prefetch to
/// the waiter's priority (priority escalation, SE-0462) for as long as that takes.
public actor PagePrefetcher {
    private let backend: TracedBackend
    private var prefetches: [Int: Task<String, any Error>] = [:]

    public init(backend: TracedBackend) {
        self.backend = backend
    }

    /// Starts fetching `page` at background priority, unless it is fetched or being fetched.
    public func prefetch(_ page: Int) {
        guard prefetches[page] == nil else { return }
        prefetches[page] = Task(priority: .background) {
            try await backend.call("page \(page)")
        }
    }

    /// Returns `page`: prefetched, being prefetched (then it waits for the prefetch, which
    /// runs at this caller's priority meanwhile), or fetched now.
    public func load(_ page: Int) async throws -> String {
        guard let prefetch = prefetches[page] else { return try await backend.call("page \(page)") }
        return try await prefetch.value
    }
}
