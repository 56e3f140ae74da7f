import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The client side of the simulated HTTP transport, shaped like `URLSession`.
///
/// It talks to one ``SimulatedHTTPServer`` and offers what the chapters need from URLSession:
/// - completion-handler tasks: ``dataTask(with:completionHandler:)``, which do nothing until
///   `resume()` and stop the transfer on `cancel()`;
/// - async calls: ``data(for:delegate:)``, ``upload(for:from:delegate:)``, ``download(for:delegate:)`` and
///   ``bytes(for:delegate:)`` (whose `lines` arrive one by one). Cancelling the calling task
///   cancels the transfer, as URLSession's async methods do;
/// - a delegate-style feed: ``lineFeedTask(with:delegate:)``;
/// - authentication, routed as URLSession routes it: a server-trust challenge goes to the
///   session-wide delegate first (it is a session-level challenge), then to the request's
///   own delegate; a sign-in challenge goes to the request's own delegate first, then to the
///   session-wide one; with neither, default handling. The request's own delegate is kept
///   until the request ends, then released. (A real session evaluates server trust once per
///   TLS connection; this one does for every request, as if each opened a new connection.)
/// - ``transfersStarted`` counts the transfers that started, so a test can check that a
///   cancelled caller never started one.
///
/// Downloads are written to ``temporaryDirectory`` and belong to the caller from then on,
/// as with URLSession. The session remembers every temporary file it wrote
/// (``temporaryFilesCreated``) so a test can check that none is left behind.
public final class SimulatedURLSession: Sendable {
    /// The server every request goes to.
    public let server: SimulatedHTTPServer
    /// Where downloads are written.
    public let temporaryDirectory: URL
    private let delegate: (any SimulatedSessionDelegate)?
    private let temporaryFiles = Locked<[URL]>([])
    /// Counts the transfers that started: a data task's `resume()` that starts it, or an
    /// async call (`data`, `download`, `bytes`) whose calling task was not already cancelled.
    /// It goes up before the request is sent, in the caller's own turn.
    public let transfersStarted = ObservedCount()
    /// Counts the completion handlers the session's data tasks owe: one for each data task that
    /// was resumed, or cancelled before it was.
    public let completionsOwed = ObservedCount()
    /// Counts the data tasks' completion handlers that have run to their end.
    public let completionsDelivered = ObservedCount()
    let callbackQueue = DispatchQueue(label: "SimulatedURLSession.callbacks")

    /// A session for `server`. `delegate`, like URLSession's session delegate, answers the
    /// challenges of every request that does not bring its own delegate.
    public init(
        server: SimulatedHTTPServer, delegate: (any SimulatedSessionDelegate)? = nil,
        temporaryDirectory: URL = FileManager.default.temporaryDirectory
    ) {
        self.server = server
        self.delegate = delegate
        self.temporaryDirectory = temporaryDirectory
    }

    /// Suspends until every completion handler the data tasks owe so far has run, so that a test
    /// sees what a late completion does (a second resume, say) before its scenario ends.
    public func allCompletionsDelivered() async {
        await completionsDelivered.reach(completionsOwed.value)
    }

    /// Every temporary file a download has written, whether or not it still exists.
    public var temporaryFilesCreated: [URL] { temporaryFiles.withLock { $0 } }

    /// The temporary files that still exist: the ones nobody moved or removed.
    public var temporaryFilesRemaining: [URL] {
        temporaryFilesCreated.filter { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// A task that fetches `request` once resumed, then calls `completionHandler` on a background
    /// queue with `(data, response, nil)` or `(nil, nil, error)`: `URLError(.cancelled)` if cancelled.
    public func dataTask(
        with request: URLRequest,
        completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> SimulatedDataTask {
        SimulatedDataTask(request: request, session: self, completionHandler: completionHandler)
    }

    /// Fetches `request` and returns the body and response, whatever the status code.
    /// Throws `URLError`; `URLError(.cancelled)` when the calling task is cancelled.
    public func data(
        for request: URLRequest, delegate: (any SimulatedSessionDelegate)? = nil
    ) async throws -> (Data, URLResponse) {
        switch try await transfer(request, delegate: delegate) {
        case .response(let response, let body): return (body, response)
        case .stream: throw URLError(.badServerResponse)
        }
    }

    /// Sends `bodyData` as the body of `request` and returns the answer's body and response,
    /// whatever the status code. Like URLSession's `upload(for:from:)`, it takes the method from
    /// `request` and sets none itself: a request whose `httpMethod` nobody set is a GET, and a
    /// GET with a body fails with `URLError(.dataLengthExceedsMaximum)` before it is sent, as
    /// every request of this session does. The server records the method of what it received.
    public func upload(
        for request: URLRequest, from bodyData: Data, delegate: (any SimulatedSessionDelegate)? = nil
    ) async throws -> (Data, URLResponse) {
        var request = request
        request.httpBody = bodyData
        return try await data(for: request, delegate: delegate)
    }

    /// Fetches `request` into a new temporary file and returns its location. The caller owns
    /// the file: move it somewhere, or remove it. Non-2xx responses are downloaded too.
    public func download(
        for request: URLRequest, delegate: (any SimulatedSessionDelegate)? = nil
    ) async throws -> (URL, URLResponse) {
        let (body, response) = try await data(for: request, delegate: delegate)
        let file = temporaryDirectory.appendingPathComponent("SimulatedDownload-\(UUID().uuidString).tmp")
        try body.write(to: file)
        temporaryFiles.withLock { $0.append(file) }
        return (file, response)
    }

    /// Starts `request` and returns as soon as the response has begun: its lines then arrive
    /// one by one through `bytes.lines`, as the server sends them. Ending the iteration early
    /// (cancelling the iterating task, or dropping the sequence) hangs up the connection.
    public func bytes(
        for request: URLRequest, delegate: (any SimulatedSessionDelegate)? = nil
    ) async throws -> (SimulatedAsyncBytes, URLResponse) {
        let (lines, continuation) = AsyncThrowingStream.makeStream(of: String.self, throwing: (any Error).self)
        switch try await transfer(request, delegate: delegate) {
        case .response(let response, let body):
            for line in String(decoding: body, as: UTF8.self).split(separator: "\n") {
                continuation.yield(String(line))
            }
            continuation.finish()
            return (SimulatedAsyncBytes(lines: lines), response)
        case .stream(let response, let stream):
            let server = self.server
            let path = request.url?.path ?? "/"
            continuation.onTermination = { termination in
                if case .cancelled = termination, stream.hangUp() { server.recordCancellation(of: path) }
            }
            stream.connect { event in
                switch event {
                case .line(let line): continuation.yield(line)
                case .end(nil): continuation.finish()
                case .end(let error?): continuation.finish(throwing: error)
                }
            }
            return (SimulatedAsyncBytes(lines: lines), response)
        }
    }

    /// A task that, once resumed, connects to `request`'s stream and reports each line and the
    /// end to `delegate`, in order, on a background queue. The task keeps `delegate` alive
    /// until it completes.
    public func lineFeedTask(with request: URLRequest, delegate: any LineFeedDelegate) -> SimulatedLineFeedTask {
        SimulatedLineFeedTask(request: request, session: self, delegate: delegate)
    }

    // MARK: - The transfer every API shares

    /// Runs one exchange with the server inside the calling task. Cancelling that task cancels
    /// the transfer: the server records it if the request had reached it, and this throws
    /// `URLError(.cancelled)`. A GET with a body never reaches the server: it fails with
    /// `URLError(.dataLengthExceedsMaximum)`, as with URLSession. `counted` is false for a data
    /// task's transfer, which its `resume()` has counted already.
    func transfer(
        _ request: URLRequest, delegate taskDelegate: (any SimulatedSessionDelegate)?, counted: Bool = true
    ) async throws -> SimulatedHTTPServer.Answer {
        let progress = TransferProgress()
        let server = self.server
        let path = request.url?.path ?? "/"
        return try await withTaskCancellationHandler {
            guard progress.start() else { throw URLError(.cancelled) }
            if counted { transfersStarted.increment() }
            defer { progress.end() }
            // URLSession refuses a GET that carries a body: swift-corelibs-foundation fails the
            // task with -1103 ("resource exceeds maximum size") and logs "GET method must not
            // have a body"; nothing reaches the server. (Measured with Swift 6.3.1 on Linux.)
            if (request.httpMethod ?? "GET") == "GET", request.httpBody != nil {
                throw URLError(.dataLengthExceedsMaximum)
            }
            do {
                return try await server.exchange(request) { challenge in
                    await self.answer(challenge, asking: taskDelegate)
                }
            } catch is CancellationError {
                throw URLError(.cancelled)
            }
        } onCancel: {
            if progress.cancel() { server.recordCancellation(of: path) }
        }
    }

    /// Asks the delegate that URLSession would ask: server trust is a session-level challenge,
    /// for the session-wide delegate first; the rest are the request's own delegate's first.
    private func answer(
        _ challenge: AuthenticationChallenge, asking taskDelegate: (any SimulatedSessionDelegate)?
    ) async -> ChallengeDisposition {
        let first = challenge.method == .serverTrust ? delegate ?? taskDelegate : taskDelegate ?? delegate
        guard let first else { return .performDefaultHandling }
        return await first.session(self, didReceive: challenge)
    }
}

/// Where one transfer is, so that a cancel is recorded only for a request that reached the server.
private final class TransferProgress: Sendable {
    private enum Stage { case notStarted, inFlight, ended, cancelled }
    private let stage = Locked(Stage.notStarted)

    /// Moves to in flight; false if the transfer was cancelled first.
    func start() -> Bool {
        stage.withLock { stage in
            guard stage == .notStarted else { return false }
            stage = .inFlight
            return true
        }
    }

    func end() { stage.withLock { $0 = .ended } }

    /// Marks the transfer cancelled; true if it was in flight.
    func cancel() -> Bool {
        stage.withLock { stage in
            defer { if stage != .ended { stage = .cancelled } }
            return stage == .inFlight
        }
    }
}

/// The body of a response that arrives over time, like `URLSession.AsyncBytes`.
/// The simulation delivers whole lines, so it offers only ``lines``.
public struct SimulatedAsyncBytes: Sendable {
    /// The response's lines, each as soon as the server sends it.
    public let lines: AsyncThrowingStream<String, any Error>
}
