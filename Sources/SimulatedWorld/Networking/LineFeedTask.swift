import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Receives a streamed response line by line, like a `URLSessionDataDelegate` that gets
/// `didReceive data` and then `didCompleteWithError`.
public protocol LineFeedDelegate: AnyObject, Sendable {
    /// One more line arrived.
    func lineFeed(_ task: SimulatedLineFeedTask, didReceive line: String)
    /// The response ended: normally (`nil`), with the server's or the network's error,
    /// or with `URLError(.cancelled)` after ``SimulatedLineFeedTask/cancel()``. Called exactly once.
    func lineFeed(_ task: SimulatedLineFeedTask, didCompleteWithError error: (any Error)?)
}

/// A delegate-style streaming task. Get one from ``SimulatedURLSession/lineFeedTask(with:delegate:)``.
///
/// Nothing happens before ``resume()``. Its delegate hears each line in order on a background
/// queue, then the end. ``cancel()`` hangs up: the server records the cancel, no later line
/// is delivered, and the delegate hears `URLError(.cancelled)`.
public final class SimulatedLineFeedTask: Sendable {
    private enum State: ResumableState {
        case suspended
        /// `resume()` is creating the connection.
        case starting
        case connecting(Task<Void, Never>)
        case connected(ScriptedLineStream)
        case completed

        var isSuspended: Bool {
            if case .suspended = self { return true }
            return false
        }
    }

    private let state = Locked(State.suspended)
    /// Kept until the task completes, as URLSession keeps its task delegates.
    private let delegate: Locked<(any LineFeedDelegate)?>
    private let delegateQueue = DispatchQueue(label: "SimulatedLineFeedTask.delegate")
    private let request: URLRequest
    private let session: SimulatedURLSession

    init(request: URLRequest, session: SimulatedURLSession, delegate: any LineFeedDelegate) {
        self.request = request
        self.session = session
        self.delegate = Locked(delegate)
    }

    /// Connects and starts delivering. Does nothing if the task already started or ended.
    public func resume() {
        guard state.claimStart() else { return }
        let connection = Task { [self] in await connect() }
        let cancelledMeanwhile = state.withLock { state -> Bool in
            switch state {
            case .starting:
                state = .connecting(connection)
                return false
            case .completed:
                return true
            case .suspended, .connecting, .connected:
                return false  // the connection got there first
            }
        }
        if cancelledMeanwhile { connection.cancel() }
    }

    /// Hangs up. The delegate hears `URLError(.cancelled)` unless the response already ended.
    public func cancel() {
        let previous = state.withLock { state -> State in
            defer { state = .completed }
            return state
        }
        switch previous {
        case .suspended, .starting:
            finish(with: URLError(.cancelled))
        case .connecting(let transfer):
            transfer.cancel()  // the transfer records the cancel if the request reached the server
            finish(with: URLError(.cancelled))
        case .connected(let stream):
            if stream.hangUp() { session.server.recordCancellation(of: request.url?.path ?? "/") }
            finish(with: URLError(.cancelled))
        case .completed:
            break
        }
    }

    private func connect() async {
        let answer: SimulatedHTTPServer.Answer
        do {
            answer = try await session.transfer(request, delegate: nil)
        } catch {
            end(with: error)
            return
        }
        switch answer {
        case .response(_, let body):
            for line in String(decoding: body, as: UTF8.self).split(separator: "\n") {
                deliver(String(line))
            }
            end(with: nil)
        case .stream(_, let stream):
            let stillWanted = state.withLock { state -> Bool in
                switch state {
                case .connecting, .starting: break
                default: return false
                }
                state = .connected(stream)
                return true
            }
            guard stillWanted else { return }
            stream.connect { [self] event in
                switch event {
                case .line(let line): deliver(line, from: stream)
                case .end(let error): end(with: error, from: stream)
                }
            }
        }
    }

    /// Passes `line` to the delegate; tells `stream` (if the line came from one) when the
    /// delegate has returned.
    private func deliver(_ line: String, from stream: ScriptedLineStream? = nil) {
        guard let delegate = delegate.withLock({ $0 }) else { return }
        delegateQueue.async {
            delegate.lineFeed(self, didReceive: line)
            stream?.delegateReturned()
        }
    }

    /// The response ended on its own (not by ``cancel()``).
    private func end(with error: (any Error)?, from stream: ScriptedLineStream? = nil) {
        let first = state.withLock { state -> Bool in
            if case .completed = state { return false }
            state = .completed
            return true
        }
        if first { finish(with: error, from: stream) }
    }

    /// Tells the delegate the task completed, then lets it go.
    private func finish(with error: (any Error)?, from stream: ScriptedLineStream? = nil) {
        guard let delegate = delegate.withLock({ $0 }) else { return }
        delegateQueue.async { [self] in
            delegate.lineFeed(self, didCompleteWithError: error)
            self.delegate.withLock { $0 = nil }
            stream?.delegateReturned()
        }
    }
}
