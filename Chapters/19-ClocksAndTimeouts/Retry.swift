/// Calls `operation` until it succeeds, at most `attempts` times.
///
/// After an attempt fails with an error that `shouldRetry` accepts, it waits on `clock`
/// before the next attempt: `firstBackoff`, then twice as long after each further failure.
/// The last attempt's error, and any error that `shouldRetry` refuses, are thrown as they are.
/// A cancel, during an attempt or during a wait, ends the retries at once.
///
/// Exercise: the retries happen, with the right waits in between. Run
/// `swift run workbook check 19` (or `swift test --filter Ch19ClocksAndTimeoutsTests`) to see
/// which clock they wait on.
public func withRetries<T: Sendable>(
    attempts: Int,
    firstBackoff: Duration,
    clock: some Clock<Duration>,
    shouldRetry: (any Error) -> Bool,
    operation: () async throws -> T
) async throws -> T {
    var backoff = firstBackoff
    var attempt = 1
    while true {
        do {
            return try await operation()
        } catch {
            guard attempt < attempts, shouldRetry(error) else { throw error }
            try await Task.sleep(for: backoff)
            backoff *= 2
            attempt += 1
        }
    }
}
