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
///
/// Exercise: the race runs, and a slow operation times out. Run `swift run workbook check 19`
/// (or `swift test --filter Ch19ClocksAndTimeoutsTests`) to see what happens when the
/// operation wins, or fails. Read Chapters/19-ClocksAndTimeouts/README.md first.
public func withTimeout<T: Sendable>(
    _ limit: Duration,
    clock: some Clock<Duration> = ContinuousClock(),
    operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        // The operation races a timer. A child that finishes with nil means "no value in time".
        group.addTask { try? await operation() }
        group.addTask {
            try await clock.sleep(for: limit)
            return nil
        }
        // The first child to finish decides.
        guard let first = try await group.next(), let value = first else {
            throw TimeoutError(limit: limit)
        }
        return value
    }
}
