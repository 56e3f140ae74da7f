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
    let deadline = clock.now.advanced(by: limit)
    return try await withThrowingTaskGroup(of: RaceOutcome<T>.self) { group in
        group.addTask { .finished(try await operation()) }
        group.addTask {
            try await clock.sleep(until: deadline, tolerance: nil)
            return .timedOut
        }
        let first = try await group.next()!
        group.cancelAll()
        switch first {
        case .finished(let value): return value
        case .timedOut: throw TimeoutError(limit: limit)
        }
    }
}

/// What the first child of the race brought back.
private enum RaceOutcome<T: Sendable>: Sendable {
    case finished(T)
    case timedOut
}
