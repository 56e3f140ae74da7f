import Foundation
import SimulatedWorld
import Testing
import WorkbookTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The simulated HTTP transport (SimulatedHTTPServer + SimulatedURLSession) must behave the
// way chapters 06 and 07 say URLSession does, or the chapters teach the wrong thing.

private func request(_ server: SimulatedHTTPServer, _ path: String, method: String = "GET") -> URLRequest {
    var request = URLRequest(url: server.url(path))
    request.httpMethod = method
    return request
}

private func status(_ response: URLResponse?) -> Int? { (response as? HTTPURLResponse)?.statusCode }

private func isCancelled(_ error: (any Error)?) -> Bool { (error as? URLError)?.code == .cancelled }

/// Answers every challenge the same way and remembers what it was asked.
private final class FixedAnswer: SimulatedSessionDelegate {
    let disposition: ChallengeDisposition
    private let asked = Locked<[AuthenticationChallenge]>([])
    init(_ disposition: ChallengeDisposition) { self.disposition = disposition }
    var challenges: [AuthenticationChallenge] { asked.withLock { $0 } }
    func session(_ session: SimulatedURLSession, didReceive challenge: AuthenticationChallenge) async
        -> ChallengeDisposition
    {
        asked.withLock { $0.append(challenge) }
        return disposition
    }
}

/// Answers with a fixed credential and counts its own release.
private final class CountsItsRelease: SimulatedSessionDelegate {
    let released: ObservedCount
    init(_ released: ObservedCount) { self.released = released }
    deinit { released.increment() }
    func session(_ session: SimulatedURLSession, didReceive challenge: AuthenticationChallenge) async
        -> ChallengeDisposition
    {
        challenge.method == .signIn ? .useCredential(Credential(user: "ada", password: "pw")) : .performDefaultHandling
    }
}

/// Records what a line feed delivers.
private final class FeedRecorder: LineFeedDelegate {
    private let events = Locked<[String]>([])
    let completions = ObservedCount()
    let linesReceived = ObservedCount()
    var received: [String] { events.withLock { $0 } }
    func lineFeed(_ task: SimulatedLineFeedTask, didReceive line: String) {
        events.withLock { $0.append(line) }
        linesReceived.increment()
    }
    func lineFeed(_ task: SimulatedLineFeedTask, didCompleteWithError error: (any Error)?) {
        events.withLock { $0.append(isCancelled(error) ? "<cancelled>" : error.map { "<\($0)>" } ?? "<end>") }
        completions.increment()
    }
}

@Suite("Simulated HTTP transport: requests and responses")
struct SimulatedHTTPRequestTests {
    @Test("data(for:) returns the scripted status and body; unscripted paths answer 404")
    func scriptedAnswers() async throws {
        let server = SimulatedHTTPServer()
        server.respond(to: "/a", with: .json("[1]", status: 503))
        let session = SimulatedURLSession(server: server)
        let (body, response) = try await session.data(for: request(server, "/a"))
        #expect(status(response) == 503 && body == Data("[1]".utf8))
        #expect(status(try await session.data(for: request(server, "/nowhere")).1) == 404)
        #expect(server.receivedRequests == ["GET /a", "GET /nowhere"])
    }

    @Test("An upload takes the request's method; a GET with a body fails with -1103 and never reaches the server")
    func uploadTakesTheRequestsMethod() async throws {
        let server = SimulatedHTTPServer()
        server.respond(to: "/photos", with: .json("{}", status: 201))
        let session = SimulatedURLSession(server: server)
        let body = Data([1, 2, 3])
        // As URLSession: a new URLRequest says GET, and a GET may not carry a body.
        await #expect(throws: URLError(.dataLengthExceedsMaximum)) {
            try await session.upload(for: URLRequest(url: server.url("/photos")), from: body)
        }
        var withBody = URLRequest(url: server.url("/photos"))
        withBody.httpBody = body
        await #expect(throws: URLError(.dataLengthExceedsMaximum)) { try await session.data(for: withBody) }
        #expect(server.receivedRequests.isEmpty)

        let (_, response) = try await session.upload(for: request(server, "/photos", method: "PUT"), from: body)
        #expect(status(response) == 201)
        #expect(server.receivedRequests == ["PUT /photos"] && server.receivedBodies == [body])
    }

    @Test("A scripted failure throws its URLError")
    func scriptedFailure() async {
        let server = SimulatedHTTPServer()
        server.respond(to: "/a", with: .failure(.notConnectedToInternet))
        await #expect(throws: URLError(.notConnectedToInternet)) {
            try await SimulatedURLSession(server: server).data(for: request(server, "/a"))
        }
    }

    @Test("A data task starts on resume() and calls back once")
    func dataTaskRunsOnResume() async {
        let server = SimulatedHTTPServer()
        server.respond(to: "/a", with: .json("ok"))
        let calls = ObservedCount()
        let body = Locked<Data?>(nil)
        let task = SimulatedURLSession(server: server).dataTask(with: request(server, "/a")) { data, _, _ in
            body.withLock { $0 = data }
            calls.increment()
        }
        #expect(server.requestsReceived.value == 0)
        task.resume()
        task.resume()
        await calls.reach(1)
        #expect(body.withLock { $0 } == Data("ok".utf8))
        task.cancel()  // after completion: nothing happens
        #expect(calls.value == 1 && server.cancellations.value == 0)
    }

    @Test("A data task cancelled before resume() calls back cancelled and never reaches the server")
    func cancelBeforeResume() async {
        let server = SimulatedHTTPServer()
        let cancelled = ObservedCount()
        let task = SimulatedURLSession(server: server).dataTask(with: request(server, "/a")) { _, _, error in
            if isCancelled(error) { cancelled.increment() }
        }
        task.cancel()
        task.resume()
        await cancelled.reach(1)
        #expect(server.receivedRequests.isEmpty && server.cancellations.value == 0)
    }

    @Test("A held response waits for release; cancelling the data task meanwhile is recorded")
    func holdAndCancelDataTask() async {
        let server = SimulatedHTTPServer()
        server.respond(to: "/slow", with: .json("late"))
        server.holdResponses(to: "/slow")
        let outcome = Locked<(any Error)?>(nil)
        let done = ObservedCount()
        let task = SimulatedURLSession(server: server).dataTask(with: request(server, "/slow")) { _, _, error in
            outcome.withLock { $0 = error }
            done.increment()
        }
        task.resume()
        await server.requestsHeld.reach(1)
        #expect(done.value == 0)
        task.cancel()
        await done.reach(1)
        #expect(isCancelled(outcome.withLock { $0 }))
        #expect(server.cancelledPaths == ["/slow"])
    }

    @Test("The observer sees each request arrive, wait at its hold and be answered; a failure plan fails one request")
    func observedAndFailed() async throws {
        let server = SimulatedHTTPServer()
        server.respond(to: "/a", with: .json("ok"))
        server.holdResponses(to: "/a")
        let plan = FailurePlan(failingCall: 2)
        server.failRequests(per: plan, with: .status(503))
        let events = Locked<[String]>([])
        server.observeRequests { [weak server] event in
            events.withLock { $0.append(event.description) }
            if event.kind == .waiting { server?.releaseResponses(to: event.path) }
        }
        let session = SimulatedURLSession(server: server)
        #expect(status(try await session.data(for: request(server, "/a")).1) == 200)
        #expect(status(try await session.data(for: request(server, "/a")).1) == 503)
        #expect(
            events.withLock { $0 } == [
                "the server receives GET /a", "GET /a waits for its answer", "the server answers GET /a with 200",
                "the server receives GET /a", "the server answers GET /a with 503",
            ])
        #expect(plan.calls == ["GET /a", "GET /a"] && plan.failedCall == "GET /a")
    }

    @Test("A held response is answered once released")
    func holdAndRelease() async throws {
        let server = SimulatedHTTPServer()
        server.respond(to: "/slow", with: .json("late"))
        server.holdResponses(to: "/slow")
        let session = SimulatedURLSession(server: server)
        let fetch = Task { try await session.data(for: request(server, "/slow")).0 }
        await server.requestsHeld.reach(1)
        server.releaseResponses(to: "/slow")
        #expect(try await fetch.value == Data("late".utf8))
        #expect(server.cancellations.value == 0)
    }

    @Test("Cancelling the task awaiting data(for:) cancels the transfer; a cancelled task sends nothing")
    func asyncCallsFollowTaskCancellation() async {
        let server = SimulatedHTTPServer()
        server.holdResponses(to: "/slow")
        let session = SimulatedURLSession(server: server)
        let fetch = Task { try await session.data(for: request(server, "/slow")) }
        await server.requestsHeld.reach(1)
        fetch.cancel()
        await #expect(throws: URLError(.cancelled)) { try await fetch.value }
        #expect(server.cancelledPaths == ["/slow"])

        let late = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await session.data(for: request(server, "/other"))
        }
        await #expect(throws: URLError(.cancelled)) { try await late.value }
        #expect(server.receivedRequests == ["GET /slow"])
    }

    @Test("download(for:) writes a temporary file the caller owns, and remembers it")
    func downloadWritesTemporaryFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("transport-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = SimulatedHTTPServer()
        server.respond(to: "/file", with: .status(500, body: Data("oops".utf8)))
        let session = SimulatedURLSession(server: server, temporaryDirectory: folder)
        let (file, response) = try await session.download(for: request(server, "/file"))
        #expect(status(response) == 500)
        #expect(file.deletingLastPathComponent().standardizedFileURL.path == folder.standardizedFileURL.path)
        #expect(try Data(contentsOf: file) == Data("oops".utf8))
        #expect(session.temporaryFilesCreated == [file] && session.temporaryFilesRemaining == [file])
        try FileManager.default.removeItem(at: file)
        #expect(session.temporaryFilesRemaining.isEmpty)
    }

    @Test("A real URLSession reaches the scripted routes through the URLProtocol stub")
    func realURLSession() async throws {
        let server = SimulatedHTTPServer()
        server.respond(to: "/favorites", with: .json("[]", status: 404))
        let session = server.makeURLSession()
        defer { session.finishTasksAndInvalidate() }
        let (body, response) = try await session.data(for: request(server, "/favorites"))
        #expect(status(response) == 404 && body == Data("[]".utf8))
        #expect(server.receivedRequests == ["GET /favorites"])
    }
}

@Suite("Simulated HTTP transport: authentication challenges")
struct SimulatedHTTPChallengeTests {
    private let secret = Credential(user: "ada", password: "pw")

    private func protectedServer() -> SimulatedHTTPServer {
        let server = SimulatedHTTPServer()
        server.respond(to: "/private", with: .json("yes"), requiringSignIn: secret)
        return server
    }

    @Test("Every request meets a server-trust challenge; a protected one also a sign-in challenge")
    func challengesPerRequest() async throws {
        let server = protectedServer()
        server.respond(to: "/public", with: .json("hi"))
        let delegate = FixedAnswer(.useCredential(secret))
        let session = SimulatedURLSession(server: server, delegate: delegate)
        _ = try await session.data(for: request(server, "/public"))
        let (body, response) = try await session.data(for: request(server, "/private"))
        #expect(status(response) == 200 && body == Data("yes".utf8))
        #expect(
            delegate.challenges == [
                AuthenticationChallenge(method: .serverTrust, path: "/public"),
                AuthenticationChallenge(method: .serverTrust, path: "/private"),
                AuthenticationChallenge(method: .signIn, path: "/private"),
            ])
    }

    @Test("Server trust goes to the session's delegate first; sign-in to the request's own delegate first")
    func challengeRouting() async throws {
        let server = protectedServer()
        let sessionWide = FixedAnswer(.performDefaultHandling)
        let perRequest = FixedAnswer(.useCredential(secret))
        let session = SimulatedURLSession(server: server, delegate: sessionWide)
        let (_, response) = try await session.data(for: request(server, "/private"), delegate: perRequest)
        #expect(status(response) == 200)
        #expect(sessionWide.challenges == [AuthenticationChallenge(method: .serverTrust, path: "/private")])
        #expect(perRequest.challenges == [AuthenticationChallenge(method: .signIn, path: "/private")])

        // Without a session-wide delegate, the request's own delegate hears both.
        let alone = FixedAnswer(.useCredential(secret))
        _ = try await SimulatedURLSession(server: server).data(for: request(server, "/private"), delegate: alone)
        #expect(alone.challenges.map(\.method) == [.serverTrust, .signIn])
    }

    @Test("A request's own delegate is kept until the request ends, then released")
    func taskDelegateLifetime() async throws {
        let server = protectedServer()
        server.holdResponses(to: "/private")
        let released = ObservedCount()
        let session = SimulatedURLSession(server: server)
        let fetch = Task {
            try await session.data(for: request(server, "/private"), delegate: CountsItsRelease(released))
        }
        await server.requestsHeld.reach(1)
        #expect(released.value == 0)  // the sign-in challenge is still to come: the session keeps it
        server.releaseResponses(to: "/private")
        #expect(status(try await fetch.value.1) == 200)
        if case .stillSuspended = await withinHangLimit(hangLimit, { await released.reach(1) }) {
            Issue.record("The request ended, but the session still holds its delegate.")
        }
    }

    @Test("transfersStarted counts a resumed data task and an async call, not a call from a cancelled task")
    func transfersStarted() async throws {
        let server = SimulatedHTTPServer()
        server.respond(to: "/a", with: .json("[1]"))
        let session = SimulatedURLSession(server: server)
        let task = session.dataTask(with: request(server, "/a")) { _, _, _ in }
        #expect(session.transfersStarted.value == 0)
        task.resume()
        #expect(session.transfersStarted.value == 1)
        _ = try await session.data(for: request(server, "/a"))
        #expect(session.transfersStarted.value == 2)
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await session.data(for: request(server, "/a"))
        }
        await #expect(throws: URLError(.cancelled)) { try await cancelled.value }
        let never = session.dataTask(with: request(server, "/a")) { _, _, _ in }
        never.cancel()
        never.resume()
        #expect(session.transfersStarted.value == 2)
    }

    @Test(
        "Default handling or a wrong credential gets 401",
        arguments: [
            ChallengeDisposition.performDefaultHandling, .useCredential(Credential(user: "ada", password: "nope")),
        ])
    func unauthorised(disposition: ChallengeDisposition) async throws {
        let server = protectedServer()
        let session = SimulatedURLSession(server: server, delegate: FixedAnswer(disposition))
        #expect(status(try await session.data(for: request(server, "/private")).1) == 401)
        #expect(status(try await SimulatedURLSession(server: server).data(for: request(server, "/private")).1) == 401)
    }

    @Test("A cancelled challenge fails the request as cancelled and is recorded")
    func cancelledChallenge() async {
        let server = protectedServer()
        let session = SimulatedURLSession(server: server, delegate: FixedAnswer(.cancelAuthenticationChallenge))
        await #expect(throws: URLError(.cancelled)) { try await session.data(for: request(server, "/private")) }
        #expect(server.cancelledChallenges == [AuthenticationChallenge(method: .serverTrust, path: "/private")])
    }

    @Test("The sign-in prompt answers as scripted and remembers what it was shown for")
    func signInPrompt() async {
        let challenge = AuthenticationChallenge(method: .signIn, path: "/private")
        let signingIn = SignInPrompt(user: .signIn(secret))
        #expect(await signingIn.requestCredential(for: challenge) == secret)
        let cancelling = SignInPrompt(user: .cancel)
        #expect(await cancelling.requestCredential(for: challenge) == nil)
        #expect(cancelling.challengesShown == [challenge] && cancelling.timesShown.value == 1)
    }
}

@Suite("Simulated HTTP transport: streamed lines")
struct SimulatedHTTPStreamTests {
    @Test("bytes(for:).lines yields each line as the server sends it, then ends")
    func linesArriveOneByOne() async throws {
        let server = SimulatedHTTPServer()
        let stream = server.stream(at: "/live")
        stream.send("waiting")  // sent before anyone connects: waits for the client
        let (bytes, response) = try await SimulatedURLSession(server: server).bytes(for: request(server, "/live"))
        #expect(status(response) == 200)
        var lines = bytes.lines.makeAsyncIterator()
        #expect(try await lines.next() == "waiting")
        #expect(stream.send("one"))
        #expect(try await lines.next() == "one")
        stream.finish()
        #expect(try await lines.next() == nil)
        #expect(!stream.send("after the end"))
    }

    @Test("A failed stream throws its error to the reader")
    func failedStreamThrows() async throws {
        let server = SimulatedHTTPServer()
        let stream = server.stream(at: "/live")
        stream.fail(with: URLError(.networkConnectionLost))
        let (bytes, _) = try await SimulatedURLSession(server: server).bytes(for: request(server, "/live"))
        await #expect(throws: URLError(.networkConnectionLost)) {
            for try await _ in bytes.lines {}
        }
    }

    @Test("Cancelling the reader hangs up: the server records it and later lines go nowhere")
    func cancelledReaderHangsUp() async throws {
        let server = SimulatedHTTPServer()
        let stream = server.stream(at: "/live")
        let session = SimulatedURLSession(server: server)
        let reader = Task {
            let (bytes, _) = try await session.bytes(for: request(server, "/live"))
            for try await _ in bytes.lines {}
        }
        await stream.connections.reach(1)
        reader.cancel()
        await server.cancellations.reach(1)
        #expect(server.cancelledPaths == ["/live"] && stream.hangUps.value == 1)
        #expect(!stream.isConnected && !stream.send("late"))
    }

    @Test("A line feed task tells its delegate each line in order, then the end, once")
    func lineFeedDelivers() async {
        let server = SimulatedHTTPServer()
        let stream = server.stream(at: "/live")
        let recorder = FeedRecorder()
        let task = SimulatedURLSession(server: server).lineFeedTask(with: request(server, "/live"), delegate: recorder)
        #expect(stream.connections.value == 0)
        task.resume()
        await stream.connections.reach(1)
        for line in ["a", "b", "c"] { stream.send(line) }
        stream.finish()
        await recorder.completions.reach(1)
        task.cancel()  // after the end: nothing happens
        #expect(recorder.received == ["a", "b", "c", "<end>"])
        #expect(server.cancellations.value == 0)
    }

    @Test("Cancelling a line feed task hangs up, is recorded, and ends with URLError.cancelled")
    func lineFeedCancel() async {
        let server = SimulatedHTTPServer()
        let stream = server.stream(at: "/live")
        let recorder = FeedRecorder()
        let task = SimulatedURLSession(server: server).lineFeedTask(with: request(server, "/live"), delegate: recorder)
        task.resume()
        await stream.connections.reach(1)
        stream.send("a")
        await recorder.linesReceived.reach(1)
        task.cancel()
        await recorder.completions.reach(1)
        #expect(!stream.send("late"))
        #expect(recorder.received == ["a", "<cancelled>"])
        #expect(server.cancelledPaths == ["/live"])
    }
}

@Suite("Simulated screen")
struct SimulatedScreenTests {
    @Test("A redraw knows whether it ran on the main actor")
    func mainActorIsRecorded() async {
        let screen = SimulatedScreen<Int>()
        await MainActor.run { screen.draw(1) }
        await Task.detached { screen.draw(2) }.value
        #expect(screen.frames.map(\.content) == [1, 2])
        #expect(screen.frames.map(\.drawnOnMainActor) == [true, false])
        #expect(screen.content == 2 && screen.draws.value == 2)
    }
}
