import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A completion-handler data task, like `URLSessionDataTask`: it starts on ``resume()``,
/// and ``cancel()`` stops the transfer. Its completion handler runs exactly once.
///
/// Note that a `SimulatedDataTask` is not a Swift concurrency `Task`: cancelling the `Task`
/// that happens to be waiting for this one does not cancel it. Only ``cancel()`` does.
public final class SimulatedDataTask: Sendable {
    private enum State {
        case suspended
        case running(Task<Void, Never>)
        case completed
    }

    private let state = Mutex(State.suspended)
    private let request: URLRequest
    private let session: SimulatedURLSession
    private let completionHandler: @Sendable (Data?, URLResponse?, (any Error)?) -> Void

    init(
        request: URLRequest, session: SimulatedURLSession,
        completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) {
        self.request = request
        self.session = session
        self.completionHandler = completionHandler
    }

    /// Starts the transfer. Does nothing if the task already started, finished or was cancelled.
    public func resume() {
        state.withLock { state in
            guard case .suspended = state else { return }
            state = .running(
                Task { [self] in
                    do {
                        let (data, response) = try await session.data(for: request)
                        complete(data, response, nil)
                    } catch {
                        complete(nil, nil, error)
                    }
                })
        }
    }

    /// Cancels the transfer; the completion handler gets `URLError(.cancelled)`.
    /// Does nothing once the task has completed.
    public func cancel() {
        let wasSuspended = state.withLock { state -> Bool in
            switch state {
            case .suspended:
                state = .completed
                return true
            case .running(let transfer):
                transfer.cancel()
                return false
            case .completed:
                return false
            }
        }
        if wasSuspended { deliver(nil, nil, URLError(.cancelled)) }
    }

    private func complete(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) {
        let first = state.withLock { state -> Bool in
            if case .completed = state { return false }
            state = .completed
            return true
        }
        if first { deliver(data, response, error) }
    }

    private func deliver(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) {
        let completionHandler = completionHandler
        session.callbackQueue.async { completionHandler(data, response, error) }
    }
}
