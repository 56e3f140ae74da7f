import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The far end of the simulated HTTP transport: a server that tests script.
///
/// Tests decide what each path answers (``respond(to:with:requiringSignIn:)``), keep a
/// response from arriving until they say so (``holdResponses(to:)``), open a line-by-line
/// stream (``stream(at:)``), and read back what happened: which requests arrived, which
/// ones the client cancelled, which challenges it gave up on. Clients reach the server
/// through a ``SimulatedURLSession``, or through a real `URLSession` from ``makeURLSession()``.
///
/// Nothing here depends on time: a held response waits until it is released or cancelled.
public final class SimulatedHTTPServer: Sendable {
    enum Route: Sendable {
        case scripted(ScriptedResponse, requiringSignIn: Credential?)
        case stream(ScriptedLineStream)
    }

    /// What the server sends back for one request.
    enum Answer: Sendable {
        case response(HTTPURLResponse, Data)
        case stream(HTTPURLResponse, ScriptedLineStream)
    }

    private struct HeldRequest {
        let path: String
        let id: UUID
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var routes: [String: Route] = [:]
        var heldPaths: Set<String> = []
        var heldRequests: [HeldRequest] = []
        var received: [String] = []
        var bodies: [Data] = []
        var cancelled: [String] = []
        var cancelledChallenges: [AuthenticationChallenge] = []
        var observer: (@Sendable (RequestEvent) -> Void)?
        var failurePlan: (plan: FailurePlan, failure: ScriptedResponse)?
    }

    private let state = Locked(State())

    /// The server's address. Its host is unique to this server.
    public let baseURL: URL
    /// Counts the requests that have arrived.
    public let requestsReceived = ObservedCount()
    /// Counts the requests that have arrived at a hold and are waiting there.
    public let requestsHeld = ObservedCount()
    /// Counts the transfers that the client cancelled while they were in flight.
    public let cancellations = ObservedCount()

    /// A server with no routes yet: every path answers 404 until scripted.
    public init(name: String = "photos") {
        baseURL = URL(string: "https://\(name)-\(UUID().uuidString.lowercased()).simulated")!
        StubURLProtocol.register(self)
    }

    /// The URL of `path` on this server, for example `url("/favorites")`.
    public func url(_ path: String) -> URL {
        URL(string: baseURL.absoluteString + path)!
    }

    /// Scripts `path` to answer `response`. With `credential`, a request must first answer a
    /// sign-in challenge with exactly that credential, or it gets a 401 instead.
    public func respond(
        to path: String, with response: ScriptedResponse, requiringSignIn credential: Credential? = nil
    ) {
        state.withLock { $0.routes[path] = .scripted(response, requiringSignIn: credential) }
    }

    /// Scripts `path` to answer 200 and then send lines as the test emits them through the
    /// returned stream.
    public func stream(at path: String) -> ScriptedLineStream {
        let stream = ScriptedLineStream()
        state.withLock { $0.routes[path] = .stream(stream) }
        return stream
    }

    /// From now on, requests to `path` wait for ``releaseResponses(to:)`` before they are answered.
    /// A waiting request that the client cancels stops waiting.
    public func holdResponses(to path: String) {
        state.withLock { _ = $0.heldPaths.insert(path) }
    }

    /// Lets the requests waiting at `path` be answered, and stops holding new ones.
    public func releaseResponses(to path: String) {
        let released = state.withLock { state -> [HeldRequest] in
            state.heldPaths.remove(path)
            let released = state.heldRequests.filter { $0.path == path }
            state.heldRequests.removeAll { $0.path == path }
            return released
        }
        for request in released { request.continuation.resume() }
    }

    /// Calls `observer` for each thing that happens to a request at this server, in order: it
    /// arrives, it waits at a hold, it is answered or fails. The observer runs inside that moment,
    /// on the request's own task, so a test can act at exactly that point (a step probe cancels
    /// its caller there). Set it before the first request.
    public func observeRequests(_ observer: @escaping @Sendable (RequestEvent) -> Void) {
        state.withLock { $0.observer = observer }
    }

    /// From now on, every request that is about to be answered asks `plan` whether it fails
    /// (described as `"METHOD /path"`); the one that does gets `failure` instead of its route's
    /// answer. The switch behind "every failure point".
    public func failRequests(per plan: FailurePlan, with failure: ScriptedResponse) {
        state.withLock { $0.failurePlan = (plan, failure) }
    }

    /// The requests that arrived, in order, as `"METHOD /path"`.
    public var receivedRequests: [String] { state.withLock { $0.received } }

    /// The bodies of the requests that brought one (uploads), in the order they arrived.
    public var receivedBodies: [Data] { state.withLock { $0.bodies } }

    /// The paths of the transfers that the client cancelled while they were in flight.
    public var cancelledPaths: [String] { state.withLock { $0.cancelled } }

    /// The challenges the client answered with `.cancelAuthenticationChallenge`.
    public var cancelledChallenges: [AuthenticationChallenge] { state.withLock { $0.cancelledChallenges } }

    /// A real `URLSession` whose requests to this server are answered by its scripted routes,
    /// through a `URLProtocol` stub. Holds, sign-in and streams are for ``SimulatedURLSession`` only.
    public func makeURLSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubURLProtocol.self]
        return URLSession(configuration: configuration)
    }

    // MARK: - What the transport calls

    func recordCancellation(of path: String) {
        state.withLock { $0.cancelled.append(path) }
        cancellations.increment()
    }

    private func recordArrival(_ request: URLRequest) -> String {
        let path = request.url?.path ?? "/"
        let method = request.httpMethod ?? "GET"
        let observer = state.withLock {
            $0.received.append("\(method) \(path)")
            if let body = request.httpBody { $0.bodies.append(body) }
            return $0.observer
        }
        requestsReceived.increment()
        observer?(RequestEvent(.arrived, method: method, path: path))
        return path
    }

    private func notify(_ kind: RequestEvent.Kind, _ request: URLRequest, _ path: String) {
        let observer = state.withLock { $0.observer }
        observer?(RequestEvent(kind, method: request.httpMethod ?? "GET", path: path))
    }

    /// Runs one request the way a server and `URLSession` would together: the server-trust
    /// challenge, the hold, the sign-in challenge if the route needs one, then the answer.
    /// `ask` stands for the client's delegates. Throws `URLError` for failed transfers and
    /// `CancellationError` when the calling task is cancelled.
    func exchange(
        _ request: URLRequest,
        answering ask: @Sendable (AuthenticationChallenge) async -> ChallengeDisposition
    ) async throws -> Answer {
        let path = recordArrival(request)
        try await settle(AuthenticationChallenge(method: .serverTrust, path: path), with: ask)
        await waitWhileHeld(path) { self.notify(.waiting, request, path) }
        try Task.checkCancellation()
        let (route, failurePlan) = state.withLock { ($0.routes[path], $0.failurePlan) }
        if let failurePlan, failurePlan.plan.nextCallFails("\(request.httpMethod ?? "GET") \(path)") {
            return try answer(failurePlan.failure, to: request, path)
        }
        switch route {
        case nil:
            return try answer(.status(404), to: request, path)
        case .stream(let stream):
            notify(.answered(status: 200), request, path)
            return .stream(response(to: path, status: 200), stream)
        case .scripted(let scripted, let required):
            if let required {
                let challenge = AuthenticationChallenge(method: .signIn, path: path)
                guard try await settle(challenge, with: ask) == .useCredential(required) else {
                    return try answer(.status(401), to: request, path)
                }
                try Task.checkCancellation()
            }
            return try answer(scripted, to: request, path)
        }
    }

    /// `scripted` as the answer to `request`, told to the observer first.
    private func answer(_ scripted: ScriptedResponse, to request: URLRequest, _ path: String) throws -> Answer {
        switch scripted {
        case .status(let status, _): notify(.answered(status: status), request, path)
        case .failure(let code): notify(.failed(code), request, path)
        }
        return try answer(scripted, to: path)
    }

    /// The answer to a request from a real `URLSession`, which this server cannot hold or challenge.
    func immediateAnswer(to request: URLRequest) throws -> (HTTPURLResponse, Data) {
        let path = recordArrival(request)
        switch state.withLock({ $0.routes[path] }) {
        case .scripted(let scripted, requiringSignIn: nil):
            guard case .response(let response, let body) = try answer(scripted, to: path) else {
                throw URLError(.badServerResponse)
            }
            return (response, body)
        case nil:
            return (response(to: path, status: 404), Data())
        case .scripted, .stream:
            return (response(to: path, status: 501), Data())
        }
    }

    private func answer(_ scripted: ScriptedResponse, to path: String) throws -> Answer {
        switch scripted {
        case .status(let status, let body): return .response(response(to: path, status: status), body)
        case .failure(let code): throw URLError(code)
        }
    }

    /// Asks the client about `challenge`; a cancelled challenge is recorded and ends the transfer.
    @discardableResult
    private func settle(
        _ challenge: AuthenticationChallenge,
        with ask: @Sendable (AuthenticationChallenge) async -> ChallengeDisposition
    ) async throws -> ChallengeDisposition {
        let disposition = await ask(challenge)
        if disposition == .cancelAuthenticationChallenge {
            state.withLock { $0.cancelledChallenges.append(challenge) }
            throw URLError(.cancelled)
        }
        return disposition
    }

    private func response(to path: String, status: Int) -> HTTPURLResponse {
        HTTPURLResponse(url: url(path), statusCode: status, httpVersion: "HTTP/1.1", headerFields: nil)!
    }

    /// Suspends while `path` is held, calling `held` once the request waits there. Returns early
    /// when the calling task is cancelled.
    private func waitWhileHeld(_ path: String, held: () -> Void) async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let answerNow = state.withLock { state -> Bool in
                    if !state.heldPaths.contains(path) || Task.isCancelled { return true }
                    state.heldRequests.append(HeldRequest(path: path, id: id, continuation: continuation))
                    return false
                }
                if answerNow {
                    continuation.resume()
                } else {
                    requestsHeld.increment()
                    held()
                }
            }
        } onCancel: {
            let held = state.withLock { state -> HeldRequest? in
                guard let index = state.heldRequests.firstIndex(where: { $0.id == id }) else { return nil }
                return state.heldRequests.remove(at: index)
            }
            held?.continuation.resume()
        }
    }
}

/// One thing that happened to a request at a ``SimulatedHTTPServer``, as its observer sees it
/// (``SimulatedHTTPServer/observeRequests(_:)``).
public struct RequestEvent: Sendable, CustomStringConvertible {
    /// What happened.
    public enum Kind: Sendable, Equatable {
        /// The request reached the server.
        case arrived
        /// The request waits at a hold for the test to release it.
        case waiting
        /// The server answers with this status.
        case answered(status: Int)
        /// The transfer fails with this error, before any answer.
        case failed(URLError.Code)
    }

    /// What happened.
    public let kind: Kind
    /// The request's method, for example `GET`.
    public let method: String
    /// The request's path, for example `/photos/7`.
    public let path: String

    init(_ kind: Kind, method: String, path: String) {
        self.kind = kind
        self.method = method
        self.path = path
    }

    /// The request as the server records it: `"GET /photos/7"`.
    public var request: String { "\(method) \(path)" }

    /// The event in the learner's words, for a reproducer.
    public var description: String {
        switch kind {
        case .arrived: "the server receives \(request)"
        case .waiting: "\(request) waits for its answer"
        case .answered(let status): "the server answers \(request) with \(status)"
        case .failed(let code): "\(request) fails with URLError \(code.rawValue)"
        }
    }
}
