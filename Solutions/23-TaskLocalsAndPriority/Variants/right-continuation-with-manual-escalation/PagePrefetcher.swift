import SimulatedWorld

/// Loads the pages of a long list, and fetches the next ones ahead of time.
///
/// ``prefetch(_:)`` starts fetching a page at background priority, so the screen's own work
/// goes first. ``load(_:)`` returns a page: a prefetched one at once; one still being
/// prefetched by waiting for that prefetch (one backend call per page, never two), during
/// which the prefetch must run at the waiter's priority; any other by fetching it. A failed
/// prefetch hands its error to whoever waits for it and is forgotten.
public actor PagePrefetcher {
    private let backend: TracedBackend
    private var pages: [Int: String] = [:]
    private var prefetching: Set<Int> = []
    private var waiters: [Int: [CheckedContinuation<String, any Error>]] = [:]
    private var prefetchTasks: [Int: Task<Void, Never>] = [:]

    public init(backend: TracedBackend) {
        self.backend = backend
    }

    /// Starts fetching `page` at background priority, unless it is fetched or being fetched.
    public func prefetch(_ page: Int) {
        guard pages[page] == nil, !prefetching.contains(page) else { return }
        prefetching.insert(page)
        prefetchTasks[page] = Task(priority: .background) {
            do {
                deliver(page, .success(try await backend.call("page \(page)")))
            } catch {
                deliver(page, .failure(error))
            }
        }
    }

    /// Returns `page`: prefetched, being prefetched (then it waits for the prefetch), or
    /// fetched now.
    public func load(_ page: Int) async throws -> String {
        if let content = pages[page] { return content }
        if prefetching.contains(page) {
            // The runtime can't see a wait on a continuation: raise the prefetch by hand (SE-0462).
            if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
                prefetchTasks[page]?.escalatePriority(to: Task.currentPriority)
            }
            return try await withCheckedThrowingContinuation { continuation in
                waiters[page, default: []].append(continuation)
            }
        }
        return try await backend.call("page \(page)")
    }

    private func deliver(_ page: Int, _ result: Result<String, any Error>) {
        prefetching.remove(page)
        prefetchTasks[page] = nil
        if case .success(let content) = result { pages[page] = content }
        for waiter in waiters.removeValue(forKey: page) ?? [] { waiter.resume(with: result) }
    }
}
