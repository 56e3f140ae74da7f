import SimulatedWorld

/// The search box's client: asks the search server, retries when it is busy, and gives up
/// when the whole search takes too long.
///
/// It takes its clock as a parameter, so that tests can drive time with a manual clock;
/// the app uses `SearchClient(server:)`, on the continuous clock.
public struct SearchClient<C: Clock>: Sendable where C.Duration == Duration {
    /// How long a whole search may take, retries included.
    public static var timeLimit: Duration { .seconds(2) }
    /// How many times a busy server is asked, at most.
    public static var attempts: Int { 3 }
    /// The wait after the first busy answer; each later wait is twice the one before.
    public static var firstBackoff: Duration { .milliseconds(500) }

    let server: SearchServer
    let clock: C

    public init(server: SearchServer, clock: C) {
        self.server = server
        self.clock = clock
    }

    /// Searches for `query`. A busy server is asked again, up to ``attempts`` times in all,
    /// after 0.5 s, then 1 s. The whole search, retries and waits included, gives up after
    /// ``timeLimit`` (2 s from the call): it then throws ``TimeoutError`` and cancels the
    /// request in flight. Any other error is thrown as it is.
    public func search(_ query: String) async throws -> [String] {
        let server = server
        // One deadline for the whole search, fixed at the call.
        let deadline = clock.now.advanced(by: Self.timeLimit)
        var backoff = Self.firstBackoff
        var attempt = 1
        while true {
            do {
                // Each attempt gets only the time left until the one deadline.
                return try await withTimeout(clock.now.duration(to: deadline), clock: clock) {
                    try await server.search(query)
                }
            } catch is TimeoutError {
                throw TimeoutError(limit: Self.timeLimit)
            } catch SearchServerError.busy where attempt < Self.attempts {
                // Never wait past the deadline: if the backoff would, the search has run out of time.
                guard clock.now.advanced(by: backoff) < deadline else {
                    try await clock.sleep(until: deadline, tolerance: nil)
                    throw TimeoutError(limit: Self.timeLimit)
                }
                try await clock.sleep(for: backoff)
                backoff *= 2
                attempt += 1
            }
        }
    }
}

extension SearchClient where C == ContinuousClock {
    /// A client on the continuous clock: the app's.
    public init(server: SearchServer) {
        self.init(server: server, clock: ContinuousClock())
    }
}
