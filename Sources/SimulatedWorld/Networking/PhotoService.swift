import Dispatch
import Foundation

/// The part of an HTTP response the photo service reports: its status code.
public struct PhotoResponse: Sendable, Hashable {
    public let statusCode: Int
    public init(statusCode: Int) { self.statusCode = statusCode }
}

/// A transport error the tests can script, in the role of a `URLError` such as
/// `.notConnectedToInternet`. Cancellation is not one of these: a cancelled request fails
/// with the real `URLError(.cancelled)`, as in `URLSession`.
public enum PhotoServiceError: Error, Sendable, Hashable {
    /// The network is unreachable.
    case offline
}

/// A simulated photo server with a URLSession-style API: a completion-handler data task
/// and an async `data(from:)`.
///
/// Tests script what every request does with ``PhotoService/Outcome``. Completion handlers
/// run on a background queue, like a session's delegate queue, and each data task calls its
/// handler exactly once: with the scripted answer, or with `URLError(.cancelled)` if it is
/// cancelled first, as a `URLSessionDataTask` does. The service never misbehaves; any double call, wrong queue or
/// `(nil, nil)` a chapter sees is the caller's doing.
public final class PhotoService: Sendable {
    /// What a request to the service ends with.
    public enum Outcome: Sendable, CustomStringConvertible {
        /// Status 200 with the photo's bytes.
        case photo(Photo)
        /// A transport error: no data, no response.
        case failure(PhotoServiceError)
        /// A response with this (non-200) status code and an error page as the body.
        case status(Int)
        /// Status 200, but the bytes are not a photo.
        case undecodableData
        /// No answer at all, until the request is cancelled.
        case noAnswer

        public var description: String {
            switch self {
            case .photo(let photo): "status 200 with \(photo)"
            case .failure(let error): "transport error \(error)"
            case .status(let code): "status \(code)"
            case .undecodableData: "status 200 with bytes that are not a photo"
            case .noAnswer: "no answer until cancelled"
            }
        }
    }

    /// What a data task hands its completion handler, as URLSession does.
    public typealias CompletionHandler = @Sendable (Data?, PhotoResponse?, (any Error)?) -> Void

    private let outcome: @Sendable (URL) -> Outcome
    private let callbackQueue = DispatchQueue(label: "PhotoService.callbacks")
    /// How many data tasks have been started.
    public let requests = ObservedCount()
    /// How many data tasks were cancelled before they finished: the service saw the cancel.
    public let cancellations = ObservedCount()
    /// How many completion handlers have been called and have returned.
    public let callbacksReturned = ObservedCount()

    /// A service whose every request ends with `outcome`.
    public convenience init(always outcome: Outcome) {
        self.init { _ in outcome }
    }

    /// A service that decides each request's outcome from its URL.
    public init(outcome: @escaping @Sendable (URL) -> Outcome) {
        self.outcome = outcome
    }

    /// The address of photo `number` on this service.
    public static func url(ofPhoto number: Int) -> URL {
        URL(fileURLWithPath: "/photos/\(number).photo")
    }

    /// Creates a data task for `url`. Nothing happens until you call ``PhotoDataTask/resume()``;
    /// then `completionHandler` is called once, on a background queue.
    public func dataTask(with url: URL, completionHandler: @escaping CompletionHandler) -> PhotoDataTask {
        PhotoDataTask(
            outcome: outcome(url), queue: callbackQueue, requests: requests, cancellations: cancellations
        ) { [callbacksReturned] data, response, error in
            completionHandler(data, response, error)
            callbacksReturned.increment()
        }
    }

    /// Fetches `url`, the async way. Throws the transport error, or, like `URLSession`'s
    /// `data(from:)`, `URLError(.cancelled)` (not `CancellationError`) if the calling task is
    /// cancelled: then the service records the cancel. A task that is already cancelled when
    /// it calls this gets `URLError(.cancelled)` at once, and no request is made.
    public func data(from url: URL) async throws -> (Data, PhotoResponse) {
        if Task.isCancelled { throw URLError(.cancelled) }
        let running = Locked<(task: PhotoDataTask?, cancelled: Bool)>((nil, false))
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = dataTask(with: url) { data, response, error in
                    if let data, let response {
                        continuation.resume(returning: (data, response))
                    } else {
                        continuation.resume(throwing: error ?? PhotoServiceError.offline)
                    }
                }
                let cancelledAlready = running.withLock { running in
                    running.task = task
                    return running.cancelled
                }
                if cancelledAlready { task.cancel() } else { task.resume() }
            }
        } onCancel: {
            let task = running.withLock { running in
                running.cancelled = true
                return running.task
            }
            task?.cancel()
        }
    }
}

/// One request to the ``PhotoService``, in the role of `URLSessionDataTask`.
public final class PhotoDataTask: Sendable {
    private enum State { case created, running, finished }
    private let state = Locked(State.created)
    private let outcome: PhotoService.Outcome
    private let queue: DispatchQueue
    private let requests: ObservedCount
    private let cancellations: ObservedCount
    private let completionHandler: PhotoService.CompletionHandler

    init(
        outcome: PhotoService.Outcome, queue: DispatchQueue, requests: ObservedCount,
        cancellations: ObservedCount, completionHandler: @escaping PhotoService.CompletionHandler
    ) {
        self.outcome = outcome
        self.queue = queue
        self.requests = requests
        self.cancellations = cancellations
        self.completionHandler = completionHandler
    }

    /// Starts the request. Calling it again, or after ``cancel()``, does nothing.
    public func resume() {
        let starts = state.withLock { state in
            guard state == .created else { return false }
            state = .running
            return true
        }
        guard starts else { return }
        requests.increment()
        switch outcome {
        case .photo(let photo): finish(photo.encoded, PhotoResponse(statusCode: 200), nil)
        case .failure(let error): finish(nil, nil, error)
        case .status(let code): finish(Data("<h1>\(code)</h1>".utf8), PhotoResponse(statusCode: code), nil)
        case .undecodableData: finish(Data("<html>not a photo</html>".utf8), PhotoResponse(statusCode: 200), nil)
        case .noAnswer: break
        }
    }

    /// Cancels the request if it has not finished: its handler is called with
    /// `URLError(.cancelled)` and the service counts the cancel.
    public func cancel() {
        if finish(nil, nil, URLError(.cancelled)) { cancellations.increment() }
    }

    /// Calls the handler on the callback queue, unless the task has already finished.
    @discardableResult
    private func finish(_ data: Data?, _ response: PhotoResponse?, _ error: (any Error)?) -> Bool {
        let first = state.withLock { state in
            defer { state = .finished }
            return state != .finished
        }
        guard first else { return false }
        let completionHandler = completionHandler
        queue.async { completionHandler(data, response, error) }
        return true
    }
}
