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

    private var gates: [Int: Gate] = [:]
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
    /// then waits until the test answers or fails it. Throws `CancellationError` if the task
    /// is cancelled before or while it waits, and ``FeedServiceError`` if the test fails it.
    public func fetchFeed() async throws -> [String] {
        let number = requests.count + 1
        requests.append(Request(number: number, taskName: Task.name, sentWhileCancelled: Task.isCancelled))
        events.append(.sent(number))
        sent.increment()
        let gate = gate(number)
        defer { ended.increment() }
        do {
            try await gate.pass()
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
        gate(number).open()
    }

    /// Makes request `number` fail with ``FeedServiceError`` (now, or as soon as it is sent).
    public func fail(_ number: Int) {
        failing.insert(number)
        gate(number).open()
    }

    private func gate(_ number: Int) -> Gate {
        if let gate = gates[number] { return gate }
        let gate = Gate(closed: true)
        gates[number] = gate
        return gate
    }
}
