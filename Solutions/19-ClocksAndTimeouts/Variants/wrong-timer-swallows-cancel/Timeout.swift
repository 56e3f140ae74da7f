/// The error ``withTimeout(_:clock:operation:)`` throws when its time limit passes first.
public struct TimeoutError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The time limit that passed.
    public let limit: Duration

    public init(limit: Duration) {
        self.limit = limit
    }

    public var description: String { "TimeoutError(limit: \(limit))" }
}

/// Runs `operation` and gives up on it once `limit` has passed on `clock`, measured from the
/// call.
///
/// - If the operation finishes first, returns its value or throws its error, as it is.
/// - If the time limit passes first, cancels the operation and throws ``TimeoutError``.
/// - If the caller's task is cancelled, the operation is cancelled too.
///
/// Either way, nothing it started is still running when it returns.
public func withTimeout<T: Sendable>(
    _ limit: Duration,
    clock: some Clock<Duration> = ContinuousClock(),
    operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    // The deadline is fixed now, at the call, not whenever the timer child starts running.
    let deadline = clock.now.advanced(by: limit)
    return try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            // A cancelled timer has nothing to say: let it end quietly.
            try? await clock.sleep(until: deadline, tolerance: nil)
            throw TimeoutError(limit: limit)
        }
        // The loser must not run on: the group would wait for it (for a timer, the whole
        // time limit) before returning. This runs on every way out, a value or an error.
        defer { group.cancelAll() }
        // Two children: next() returns (or throws) the first to finish, never nil.
        return try await group.next()!
    }
}
