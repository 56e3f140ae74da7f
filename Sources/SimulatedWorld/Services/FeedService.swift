/// The error of a feed request that a test made fail with ``FeedService/fail(_:)``.
public enum FeedServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    case unavailable(request: Int)

    public var description: String {
        switch self {
        case .unavailable(let request): "feed request #\(request) failed"
        }
    }
}

/// A simulated API client for chapter 21's feed screen, driven by the tests.
///
/// It lives on the main actor, like the screen that calls it, so a call from main-actor code
/// reaches it without a hop: ``fetchFeed()`` records the request (its number, and the name of
/// the task that sent it, `Task.name`) *before* its first suspension. A task that starts at
/// once, `Task.immediate`, has therefore sent its request by the time the synchronous code
/// that started it returns; a `Task { }` has not even started.
///
/// Every request is held after it is sent until the test answers it (``answer(_:)``) or
/// fails it (``fail(_:)``). A request whose task is cancelled while it is held, or that is
/// sent by a task already cancelled, throws `CancellationError`, the way a real transfer is
/// torn down. Nothing here depends on timing.
@MainActor
public final class FeedService {
    /// One request, as the service saw it when it was sent.
    public struct Request: Sendable, Equatable, CustomStringConvertible {
        /// 1 for the first request, 2 for the second, and so on.
        public let number: Int
        /// The name of the task that sent it (`Task.name`), or `nil` for an unnamed task.
        public let taskName: String?
        /// Whether the task that sent it was already cancelled.
        public let sentWhileCancelled: Bool

        public var description: String {
            "request #\(number) from " + (taskName.map { "the task named \"\($0)\"" } ?? "an unnamed task")
                + (sentWhileCancelled ? ", sent by a task already cancelled" : "")
        }
    }

    /// What happened to the requests, in order.
    public enum Event: Sendable, Hashable, CustomStringConvertible {
        case sent(Int)
        case answered(Int)
        case failed(Int)
        case cancelled(Int)

        public var description: String {
            switch self {
            case .sent(let number): "#\(number) sent"
            case .answered(let number): "#\(number) answered"
            case .failed(let number): "#\(number) failed"
            case .cancelled(let number): "#\(number) cancelled"
            }
        }
    }

    /// Every request sent, in order.
    public private(set) var requests: [Request] = []
    /// Everything that happened to the requests, in order.
    public private(set) var events: [Event] = []
    /// Requests sent, whatever became of them.
    public let sent = ObservedCount()
    /// Requests that ended, in any way: answered, failed or cancelled.
    public let ended = ObservedCount()

    /// The held requests. Locked rather than main-actor state, because a cancellation handler
    /// runs on the thread that cancels, outside any actor.
    private struct Held: Sendable {
        var waiting: [Int: CheckedContinuation<Void, any Error>] = [:]
        var letThrough: Set<Int> = []
        var cancelled: Set<Int> = []
    }
    private let held = Locked(Held())
    private var failing: Set<Int> = []

    public init() {}

    /// The posts request `number` delivers: two of them, different for every request.
    public nonisolated static func posts(for number: Int) -> [String] {
        ["post \(number).1", "post \(number).2"]
    }

    /// Requests sent and not yet ended.
    public var pending: [Int] {
        requests.map(\.number).filter { number in
            !events.contains { $0 == .answered(number) || $0 == .failed(number) || $0 == .cancelled(number) }
        }
    }

    /// Fetches the feed. Records the request at once, on the caller's turn of the main actor,
    /// and starts waiting there too (no hop), until the test answers or fails it. Throws
    /// `CancellationError` if the task is cancelled before or while it waits (deterministically:
    /// a cancel that comes while the request waits ends it, even if the test answers it
    /// afterwards), and ``FeedServiceError`` if the test fails it.
    public func fetchFeed() async throws -> [String] {
        let number = requests.count + 1
        requests.append(Request(number: number, taskName: Task.name, sentWhileCancelled: Task.isCancelled))
        events.append(.sent(number))
        sent.increment()
        defer { ended.increment() }
        do {
            try await wait(for: number)
        } catch {
            events.append(.cancelled(number))
            throw error
        }
        if failing.contains(number) {
            events.append(.failed(number))
            throw FeedServiceError.unavailable(request: number)
        }
        events.append(.answered(number))
        return Self.posts(for: number)
    }

    /// Lets request `number` deliver its posts (now, or as soon as it is sent).
    public func answer(_ number: Int) {
        letThrough(number)
    }

    /// Makes request `number` fail with ``FeedServiceError`` (now, or as soon as it is sent).
    public func fail(_ number: Int) {
        failing.insert(number)
        letThrough(number)
    }

    private func letThrough(_ number: Int) {
        let waiter = held.withLock { held in
            held.letThrough.insert(number)
            return held.waiting.removeValue(forKey: number)
        }
        waiter?.resume()
    }

    /// Waits, on the main actor, until request `number` is let through or its task cancelled.
    private func wait(for number: Int) async throws {
        let held = held
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = held.withLock { held -> Result<Void, any Error>? in
                    if held.cancelled.contains(number) { return .failure(CancellationError()) }
                    if held.letThrough.contains(number) { return .success(()) }
                    held.waiting[number] = continuation
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiter = held.withLock { held in
                held.cancelled.insert(number)
                return held.waiting.removeValue(forKey: number)
            }
            waiter?.resume(throwing: CancellationError())
        }
    }
}
