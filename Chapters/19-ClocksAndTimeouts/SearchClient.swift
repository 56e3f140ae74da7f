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
    ///
    /// Exercise: the retries and the time limit are both there. Run
    /// `swift run workbook check 19` (or `swift test --filter Ch19ClocksAndTimeoutsTests`) to
    /// see when the search gives up after a retry.
    public func search(_ query: String) async throws -> [String] {
        let server = server
        return try await withRetries(
            attempts: Self.attempts, firstBackoff: Self.firstBackoff, clock: clock,
            shouldRetry: { $0 as? SearchServerError == .busy }
        ) {
            try await withTimeout(Self.timeLimit, clock: clock) {
                try await server.search(query)
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
