import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A completion-handler data task, like `URLSessionDataTask`: it starts on ``resume()``,
/// and ``cancel()`` stops the transfer. Its completion handler runs exactly once.
///
/// Note that a `SimulatedDataTask` is not a Swift concurrency `Task`: cancelling the `Task`
/// that happens to be waiting for this one does not cancel it. Only ``cancel()`` does.
public final class SimulatedDataTask: Sendable {
    private enum State: ResumableState {
        case suspended
        /// `resume()` is creating the transfer.
        case starting
        case running(Task<Void, Never>)
        case completed

        var isSuspended: Bool {
            if case .suspended = self { return true }
            return false
        }
    }

    private let state = Locked(State.suspended)
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
        guard state.claimStart() else { return }
        session.completionsOwed.increment()
        session.transfersStarted.increment()
        // The transfer is created outside the lock: locks here guard state, never run work.
        let transfer = Task { [self] in
            do {
                switch try await session.transfer(request, delegate: nil, counted: false) {
                case .response(let response, let body): complete(body, response, nil)
                case .stream: complete(nil, nil, URLError(.badServerResponse))
                }
            } catch {
                complete(nil, nil, error)
            }
        }
        let cancelledMeanwhile = state.withLock { state -> Bool in
            guard case .starting = state else { return true }
            state = .running(transfer)
            return false
        }
        if cancelledMeanwhile { transfer.cancel() }
    }

    /// Cancels the transfer; the completion handler gets `URLError(.cancelled)`.
    /// Does nothing once the task has completed.
    public func cancel() {
        let running = state.withLock { state -> Task<Void, Never>?? in
            switch state {
            case .suspended, .starting:
                state = .completed
                return .some(nil)
            case .running(let transfer):
                return .some(transfer)
            case .completed:
                return nil
            }
        }
        switch running {
        case .some(let transfer?): transfer.cancel()  // the transfer then completes as cancelled
        case .some(nil):
            session.completionsOwed.increment()
            deliver(nil, nil, URLError(.cancelled))
        case nil: break
        }
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
        let session = session
        ScheduledCallbacks.schedule(on: session.callbackQueue) {
            completionHandler(data, response, error)
            session.completionsDelivered.increment()
        }
    }
}
