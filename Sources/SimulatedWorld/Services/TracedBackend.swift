/// The trace id of the request a piece of work is done for: a task-local value (SE-0311).
///
/// A server binds it for one request with `RequestTrace.$id.withValue(id) { ... }`; every call
/// made inside that scope, and in the tasks that inherit it, reads the id. Outside any scope
/// it is `nil`.
public enum RequestTrace {
    /// The current request's trace id, or `nil` outside a request.
    @TaskLocal public static var id: String?
}

/// One call the ``TracedBackend`` saw: what was asked, for which request, at which priority.
public struct TracedCall: Sendable, Equatable, CustomStringConvertible {
    /// The endpoint called, for example `"charge order-1"` or `"page 2"`.
    public let endpoint: String
    /// `RequestTrace.id` in the calling task.
    public let traceID: String?
    /// `Task.currentPriority` in the calling task.
    public let priority: TaskPriority

    public init(endpoint: String, traceID: String?, priority: TaskPriority) {
        self.endpoint = endpoint
        self.traceID = traceID
        self.priority = priority
    }

    public var description: String {
        "\"\(endpoint)\" (trace id \(traceID.map { "\"\($0)\"" } ?? "nil"), priority \(Self.name(of: priority)))"
    }

    /// A priority as Swift code names it, for example `.background`.
    static func name(of priority: TaskPriority) -> String {
        switch priority {
        case .userInitiated: ".userInitiated"
        case .medium: ".medium"
        case .utility: ".utility"
        case .background: ".background"
        default: "\(priority.rawValue)"
        }
    }
}

/// A priority escalation that a held call saw while it waited.
public struct TracedEscalation: Sendable, Equatable {
    /// The endpoint of the held call.
    public let endpoint: String
    /// The priority before the escalation.
    public let from: TaskPriority
    /// The priority after it.
    public let to: TaskPriority

    public init(endpoint: String, from: TaskPriority, to: TaskPriority) {
        self.endpoint = endpoint
        self.from = from
        self.to = to
    }
}

/// The error of a backend call that a test failed.
public struct BackendFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The endpoint whose call failed.
    public let endpoint: String

    public init(endpoint: String) { self.endpoint = endpoint }

    public var description: String { "the backend call \"\(endpoint)\" failed" }
}

/// A simulated backend for chapter 23 that writes down, for every call, the trace id and the
/// priority it was made with.
///
/// - **The log.** ``calls`` holds each call as it started (`RequestTrace.id` and
///   `Task.currentPriority` of the calling task); ``ended`` holds each call again as it ended,
///   with the priority it had by then.
/// - **Held calls.** A backend made with `holding: true` holds every call after it starts, one
///   gate per endpoint, until the test lets the endpoint through (``letThrough(_:failing:)``,
///   ``releaseAll()``). A call whose task is cancelled while it is held, or that starts in a
///   task already cancelled, throws `CancellationError`, as a URL session's request does.
/// - **Escalations.** While a call is held, it listens for priority escalation (SE-0462's
///   `withTaskPriorityEscalationHandler`): when a higher-priority task starts waiting for the
///   task the call runs in, ``escalations`` records it and ``escalated`` counts it. That is how
///   a test knows, without timing, that a waiter raised the work's priority.
/// - **Failures.** ``failCalls(per:)`` fails calls by count (every failure point).
///
/// Nothing here depends on timing.
public final class TracedBackend: Sendable {
    private let held: HeldRequests<String>
    private let log = Locked<[TracedCall]>([])
    private let endLog = Locked<[TracedCall]>([])
    private let escalationLog = Locked<[TracedEscalation]>([])
    private let plan = Locked<FailurePlan?>(nil)
    private let startHook = Locked<(@Sendable (TracedCall) -> Void)?>(nil)

    /// Calls started, whatever became of them.
    public var started: ObservedCount { held.started }
    /// Calls that have ended, with a result or an error.
    public let ended = ObservedCount()
    /// Escalations seen by held calls.
    public let escalated = ObservedCount()

    /// A backend whose calls wait after starting (`holding: true`) or answer at once.
    public init(holding: Bool = false) {
        held = HeldRequests(holding: holding)
    }

    /// Every call as it started, in order.
    public var calls: [TracedCall] { log.withLock { $0 } }

    /// Every call as it ended, in order, with the priority it had at its end.
    public var endedCalls: [TracedCall] { endLog.withLock { $0 } }

    /// Every escalation a held call saw, in order.
    public var escalations: [TracedEscalation] { escalationLog.withLock { $0 } }

    /// Lets the held calls of `endpoint` through, and every later one at once: as failures
    /// (``BackendFailure``) if `failing`.
    public func letThrough(_ endpoint: String, failing: Bool = false) {
        held.letThrough(endpoint, failing: failing)
    }

    /// Lets every call through, held now or started later.
    public func releaseAll() { held.releaseAll() }

    /// From now on, consults `plan` once per call: the call it names throws ``BackendFailure``.
    public func failCalls(per plan: FailurePlan) { self.plan.withLock { $0 = plan } }

    /// Runs `hook` as each call starts, after it is logged: a test's step probe.
    public func onCallStart(_ hook: @escaping @Sendable (TracedCall) -> Void) {
        startHook.withLock { $0 = hook }
    }

    /// Calls `endpoint` and returns its answer, `"<endpoint>: ok"`.
    ///
    /// Throws ``BackendFailure`` if the test fails the call, and `CancellationError` if the
    /// task is cancelled before or while the call is held.
    public func call(_ endpoint: String) async throws -> String {
        let call = TracedCall(endpoint: endpoint, traceID: RequestTrace.id, priority: Task.currentPriority)
        log.withLock { $0.append(call) }
        startHook.withLock { $0 }?(call)
        let fails = plan.withLock { $0 }?.nextCallFails("\"\(endpoint)\"") ?? false
        defer {
            endLog.withLock {
                $0.append(TracedCall(endpoint: endpoint, traceID: RequestTrace.id, priority: Task.currentPriority))
            }
            ended.increment()
        }
        let passage = try await waitWatchingEscalation(endpoint)
        if fails || passage.failed { throw BackendFailure(endpoint: endpoint) }
        return "\(endpoint): ok"
    }

    private func waitWatchingEscalation(_ endpoint: String) async throws -> HeldRequests<String>.Passage {
        guard #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) else {
            return try await held.pass(endpoint) { $0 }
        }
        return try await withTaskPriorityEscalationHandler {
            try await held.pass(endpoint) { $0 }
        } onPriorityEscalated: { [escalationLog, escalated] from, to in
            escalationLog.withLock { $0.append(TracedEscalation(endpoint: endpoint, from: from, to: to)) }
            escalated.increment()
        }
    }
}
