/// Calls `operation` until it succeeds, at most `attempts` times.
///
/// After an attempt fails with an error that `shouldRetry` accepts, it waits on `clock`
/// before the next attempt: `firstBackoff`, then twice as long after each further failure.
/// The last attempt's error, and any error that `shouldRetry` refuses, are thrown as they are.
/// A cancel, during an attempt or during a wait, ends the retries at once.
public func withRetries<T: Sendable>(
    attempts: Int,
    firstBackoff: Duration,
    clock: some Clock<Duration>,
    shouldRetry: (any Error) -> Bool,
    operation: () async throws -> T
) async throws -> T {
    var backoff = firstBackoff
    // One try, then a retry for each attempt.
    for _ in 0..<attempts {
        do {
            return try await operation()
        } catch {
            guard shouldRetry(error) else { throw error }
            try await clock.sleep(for: backoff)
            backoff *= 2
        }
    }
    return try await operation()
}
