import Dispatch

/// A response that stays open and sends one line at a time, as the test decides.
///
/// Get one from ``SimulatedHTTPServer/stream(at:)``. A client connects with
/// ``SimulatedURLSession/bytes(for:delegate:)`` or ``SimulatedURLSession/lineFeedTask(with:delegate:)``;
/// the test awaits ``connections``, then calls ``send(_:)`` for each line and ends the response
/// with ``finish()`` or ``fail(with:)``. Lines sent before a client connects wait for it.
/// When the client cancels, it hangs up: later lines go nowhere, and ``send(_:)`` says so.
public final class ScriptedLineStream: Sendable {
    /// What travels down a connection.
    enum Event: Sendable {
        case line(String)
        case end((any Error)?)
    }

    private struct State {
        var listener: (@Sendable (Event) -> Void)?
        var waiting: [Event] = []
        var ended = false
    }

    private let state = Locked(State())
    /// Runs the listener, in order, outside the lock.
    private let deliveries = DispatchQueue(label: "ScriptedLineStream.deliveries")
    /// Counts the clients that have connected.
    public let connections = ObservedCount()
    /// Counts the clients that hung up (cancelled) before the response ended.
    public let hangUps = ObservedCount()
    /// Counts the delegate callbacks a line-feed client (``SimulatedLineFeedTask``) has
    /// returned from: one per line, one for the end. A test awaits it to know that the
    /// client's delegate has already handled a line, whatever its consumer is doing.
    public let delegateCallbacks = ObservedCount()

    init() {}

    /// Sends `line` to the connected client. Returns whether a connected client took it:
    /// false before anyone connects (the line waits for the first client), after the client
    /// hung up, or after the response ended.
    @discardableResult
    public func send(_ line: String) -> Bool {
        deliver(.line(line))
    }

    /// Ends the response normally: the client's line sequence finishes.
    public func finish() {
        deliver(.end(nil))
    }

    /// Ends the response with `error`, as a dropped connection would.
    public func fail(with error: any Error) {
        deliver(.end(error))
    }

    /// Whether a client is connected right now.
    public var isConnected: Bool { state.withLock { $0.listener != nil } }

    @discardableResult
    private func deliver(_ event: Event) -> Bool {
        state.withLock { state in
            guard !state.ended else { return false }
            if case .end = event { state.ended = true }
            guard let listener = state.listener else {
                state.waiting.append(event)
                return false
            }
            if state.ended { state.listener = nil }
            deliveries.async { listener(event) }  // queued under the lock, so events keep their order
            return true
        }
    }

    /// Connects `listener` and hands it the events that were waiting.
    func connect(_ listener: @escaping @Sendable (Event) -> Void) {
        state.withLock { state in
            for event in state.waiting { deliveries.async { listener(event) } }
            state.waiting.removeAll()
            if !state.ended { state.listener = listener }
        }
        connections.increment()
    }

    /// A line-feed client's delegate returned from one callback.
    func delegateReturned() { delegateCallbacks.increment() }

    /// The client hangs up. Returns whether it was still connected.
    @discardableResult
    func hangUp() -> Bool {
        let wasConnected = state.withLock { state -> Bool in
            defer { state.listener = nil }
            return state.listener != nil
        }
        if wasConnected { hangUps.increment() }
        return wasConnected
    }
}
