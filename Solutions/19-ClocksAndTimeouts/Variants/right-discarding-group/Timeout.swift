import SimulatedWorld

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
    let answer = Locked<T?>(nil)
    do {
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask {
                let value = try await operation()
                answer.withLock { $0 = value }
                // A child of a discarding group ends its siblings by throwing.
                throw Answered()
            }
            group.addTask {
                try await clock.sleep(until: deadline, tolerance: nil)
                throw TimeoutError(limit: limit)
            }
        }
    } catch is Answered {
        return answer.withLock { $0 }!
    }
    preconditionFailure("both children throw, so the group always throws")
}

/// Thrown by the operation's child once its value is stored: the first error thrown in a
/// discarding group cancels the other children.
private struct Answered: Error {}
