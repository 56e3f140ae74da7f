import Foundation
import SimulatedWorld
import Testing
import WorkbookTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if Solutions
    import Ch06AsyncNetworkingSolution
#else
    import Ch06AsyncNetworking
#endif

// Chapter 06's contract (the reading's "Your task"), explored on its own for the two functions
// whose service can be cancelled or fail: loadPhotoPage and downloadArchive. The caller is
// cancelled before the call and right after every step of every request (it reaches the server,
// it waits there, it is answered), and each request fails in turn, then the same call is made
// again. Each failure names the lesson and adds a reproducer: the steps, the cancel or failure point.
//
// Every request waits at a hold until the step that reports it has run: released at once if the
// caller was not cancelled by then, kept if it was, so a transfer the caller's cancel does not
// reach waits for ever instead of finishing by luck.

/// The steps of one request, as the probe reports them.
private func observeSteps(of server: SimulatedHTTPServer, _ paths: [String], with probe: StepProbe) {
    for path in paths { server.holdResponses(to: path) }
    server.observeRequests { [weak server] event in
        probe.step(event.description)
        if event.kind == .waiting, !probe.cancelMade { server?.releaseResponses(to: event.path) }
    }
}

/// The request the caller was waiting for when it was cancelled: the last one that reached the
/// server by then and was not answered yet, if any.
private func requestInFlight(_ run: CancelPointRun<some Sendable>, of server: SimulatedHTTPServer) -> String? {
    guard let point = run.cancelAfter, point > 0 else { return nil }
    let before = run.steps.prefix(point)
    guard let arrival = before.last(where: { $0.hasPrefix("the server receives ") }) else { return nil }
    let request = String(arrival.dropFirst("the server receives ".count))
    return before.contains { $0.hasPrefix("the server answers \(request) ") } ? nil : request
}

/// Whether `server` saw the transfer of `request` cancelled, waiting for it within the hang limit
/// (a transfer's cancel may reach the server just after the caller has its error).
private func cancelledAtServer(_ request: String, _ server: SimulatedHTTPServer) async -> Bool {
    let path = String(request.drop { $0 != "/" })
    _ = await withinHangLimit { await server.cancellations.reach(1) }
    return server.cancelledPaths.contains(path)
}

/// The requests of `received` that were sent more than once, as a violation of `function`'s contract.
private func repeatedRequests(_ received: [String], in function: String, section: String) -> [Violation] {
    guard Set(received).count < received.count else { return [] }
    return [Violation(requestRepeated(in: function, section: section), "The server received: \(received)")]
}

// MARK: - loadPhotoPage

private let page = PhotoPage(photo: harbour, comments: ["Lovely light", "Where is this?"])
private let pageRequests = ["GET /photos/7", "GET /photos/7/comments"]
private let pageSection = "A Task is not a URLSessionTask"

/// A server with photo 7 and its comments, and a session to it.
private struct PageWorld: Sendable {
    let server = SimulatedHTTPServer()
    let session: SimulatedURLSession

    init() {
        server.respond(to: "/photos/7", with: .json(harbourJSON))
        server.respond(to: "/photos/7/comments", with: .json(#"["Lovely light","Where is this?"]"#))
        session = SimulatedURLSession(server: server)
    }

    func load() async throws -> PhotoPage {
        try await loadPhotoPage(id: "7", from: server.baseURL, using: session)
    }
}

/// loadPhotoPage, cancelled before the call and after every step: no request after the cancel, the
/// transfer in flight cancelled at the server, and a cancellation error, or the page if the cancel
/// came after the last answer.
private func pageAtEveryCancelPoint() async {
    let runs = Locked(0)
    let report = await exploreCancelPoints(
        "loadPhotoPage(id: \"7\")",
        world: { probe in
            let world = PageWorld()
            let run = runs.withLock { runs in
                defer { runs += 1 }
                return runs
            }
            announce("loadPhotoPage(id: \"7\"), " + (run == 0 ? "without a cancel" : "cancel point \(run - 1)"))
            observeSteps(of: world.server, ["/photos/7", "/photos/7/comments"], with: probe)
            return world
        },
        operation: { try await $0.load() }
    ) { run, world in
        let received = world.server.receivedRequests
        var violations = repeatedRequests(received, in: "loadPhotoPage()", section: pageSection)
        guard let point = run.cancelAfter else {
            if case .success(page)? = run.outcome, received == pageRequests { return violations }
            return violations + [
                Violation(
                    run.outcome == nil ? Bugs.pageNeverEnds : Bugs.pageWrong,
                    "Without a cancel, loadPhotoPage(): \(describeOutcome(run.outcome)); the server received: \(received)"
                )
            ]
        }
        let late = run.stepsAfterCancel.filter { $0.hasPrefix("the server receives ") }
        if !late.isEmpty {
            violations.append(
                Violation(
                    point == 0 ? Bugs.startsWhenAlreadyCancelled : Bugs.secondRequestStarted,
                    "After the cancel: \(late)"))
        }
        if let request = requestInFlight(run, of: world.server), !(await cancelledAtServer(request, world.server)) {
            violations.append(
                Violation(
                    Bugs.transferNotCancelled,
                    "The caller was cancelled while \(request) was on its way, and the server never saw that transfer cancelled."
                ))
        }
        switch run.outcome {
        // A transfer that went on after the cancel waits at its hold for ever: the hang is its consequence.
        case nil where violations.isEmpty:
            violations.append(Violation(Bugs.pageNeverEnds, "loadPhotoPage(): \(describeOutcome(run.outcome))."))
        case nil:
            break
        case .failure(let error)? where !isCancellation(error):
            violations.append(Violation(Bugs.wrongErrorOnCancel, "loadPhotoPage() threw \(error)."))
        // Cancelled after the server answered the last request, the work is done: the page may be returned.
        case .success(page)? where point == run.steps.count && received == pageRequests:
            break
        case .success(let loaded)?:
            violations.append(
                Violation(Bugs.cancelSwallowed, "loadPhotoPage() returned \(loaded) to a cancelled Task."))
        case .failure?:
            break
        }
        return violations
    }
    report.record()
}

/// loadPhotoPage with each request failing in turn: the error is thrown as it is, no request
/// starts after it, and the same call made again loads the page with one request each.
private func pageAtEveryFailurePoint() async {
    let report = await exploreFailurePoints(
        "loadPhotoPage(id: \"7\"), the failing request losing its connection (URLError -1005)",
        world: { plan in
            announce("loadPhotoPage(id: \"7\"), " + (plan.failingCall.map { "request \($0) failing" } ?? "no failure"))
            let world = PageWorld()
            world.server.failRequests(per: plan, with: .failure(.networkConnectionLost))
            return world
        },
        operation: { try await $0.load() }
    ) { run, world in
        var violations = repeatedRequests(run.calls, in: "loadPhotoPage()", section: pageSection)
        guard let outcome = run.outcome, let recovery = run.recovery else {
            return violations + [Violation(Bugs.pageNeverEnds, describeOutcome(run.outcome))]
        }
        if let failing = run.failingCall {
            if case .failure(let error) = outcome, (error as? URLError)?.code == .networkConnectionLost {
            } else {
                violations.append(
                    Violation(
                        Bugs.failureHidden,
                        "\(run.failedCall ?? "A request") failed with URLError -1005, and then loadPhotoPage(): \(describeOutcome(outcome))."
                    ))
            }
            if run.calls.count > failing {
                violations.append(
                    Violation(Bugs.pageWrong, "After the failed request, the server was asked: \(run.calls)"))
            }
        } else if outcome.value != page || run.calls != pageRequests {
            violations.append(
                Violation(
                    Bugs.pageWrong,
                    "Without a failure, loadPhotoPage(): \(describeOutcome(outcome)); the server was asked: \(run.calls)"
                ))
        }
        if recovery.value != page || run.recoveryCalls != pageRequests {
            violations.append(
                Violation(
                    Bugs.pageWrong,
                    "Called again with no failure, loadPhotoPage(): \(describeOutcome(recovery)); the server was asked: \(run.recoveryCalls)"
                ))
        }
        return violations
    }
    report.record()
}

/// In the child: notes on standard error the run about to start, so that a trap names it.
private func announce(_ run: String) {
    FileHandle.standardError.write(Data("\(runMarker)\(run)\n".utf8))
}

private let runMarker = "[contract run] "

// MARK: - downloadArchive

private let downloadSection = "The temporary file is yours"

/// A folder of its own with last time's archive at the destination ("archive v1"), a server whose
/// archive is "archive v2", then "archive v3" for the next call, and so on.
private final class DownloadWorld: Sendable {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-ch06-\(UUID().uuidString)")
    let server = SimulatedHTTPServer()
    let session: SimulatedURLSession
    private let calls = Locked<[String?]>([])
    var destination: URL { folder.appendingPathComponent("archive.zip") }

    init() {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try? Data("archive v1".utf8).write(to: folder.appendingPathComponent("archive.zip"))
        session = SimulatedURLSession(server: server, temporaryDirectory: folder)
        server.respond(to: "/archive.zip", with: .status(200, body: Data("archive v2".utf8)))
    }

    /// The destination's contents, or nil.
    var saved: String? { (try? Data(contentsOf: destination)).map { String(decoding: $0, as: UTF8.self) } }

    /// The destination's contents before each call so far.
    var savedBeforeEachCall: [String?] { calls.withLock { $0 } }

    /// Downloads the next version, and returns what is at the destination then.
    func download() async throws -> String? {
        let version = calls.withLock { calls in
            calls.append(saved)
            return calls.count + 1
        }
        server.respond(to: "/archive.zip", with: .status(200, body: Data("archive v\(version)".utf8)))
        try await downloadArchive(from: server.baseURL, to: destination, using: session)
        return saved
    }

    /// The temporary files still on disk, as violations; then removes the folder.
    func leftovers(_ when: String) -> [Violation] {
        defer { try? FileManager.default.removeItem(at: folder) }
        let left = session.temporaryFilesRemaining.map(\.lastPathComponent)
        return left.isEmpty ? [] : [Violation(Bugs.temporaryFileLeft, "\(when): still on disk: \(left)")]
    }
}

/// A call (`call` says which) that left last time's archive, `kept`, at the destination.
private func notReplaced(_ call: String, _ outcome: Result<String?, any Error>?, kept: String) -> Violation {
    // A file error, as its message: "A file with the same name already exists."
    let said =
        if case .failure(let error as NSError)? = outcome, error.domain == NSCocoaErrorDomain {
            "it threw \"\(error.localizedDescription)\""
        } else {
            describeOutcome(outcome)
        }
    return Violation(
        Bugs.destinationNotReplaced, "\(call)downloadArchive(): \(said); the destination holds: \(kept)")
}

/// downloadArchive, cancelled before the call and after every step: a cancellation error with
/// last time's archive kept, or (cancelled after the answer) the new archive in its place; never a
/// temporary file left, never a second request.
private func downloadAtEveryCancelPoint() async {
    let report = await exploreCancelPoints(
        "downloadArchive, with last time's archive at the destination",
        world: { probe in
            let world = DownloadWorld()
            observeSteps(of: world.server, ["/archive.zip"], with: probe)
            return world
        },
        operation: { try await $0.download() }
    ) { run, world in
        let cancelled = run.cancelAfter.map { "After a cancel at point \($0)" } ?? "Without a cancel"
        var violations = repeatedRequests(
            world.server.receivedRequests, in: "downloadArchive()", section: downloadSection)
        switch run.outcome {
        case nil:
            violations.append(Violation(Bugs.archiveWrong, "downloadArchive(): \(describeOutcome(run.outcome))."))
        // Cancelled after the server answered, the work is done: the new archive may be saved.
        case .success(.some("archive v2"))?
        where run.isBaseline || (run.cancelAfter ?? 0) > 0 && run.cancelAfter == run.steps.count:
            break
        case .failure(let error)? where !run.isBaseline && isCancellation(error) && world.saved == "archive v1":
            break
        // The server answered 200, yet last time's archive is still there.
        case .failure(let error)?
        where !isCancellation(error) && world.saved == "archive v1"
            && run.steps.last?.hasPrefix("the server answers GET /archive.zip with 200") == true:
            violations.append(notReplaced("", run.outcome, kept: "archive v1"))
        default:
            violations.append(
                Violation(
                    Bugs.archiveWrong,
                    "\(cancelled), downloadArchive(): \(describeOutcome(run.outcome)); the destination holds: \(world.saved ?? "nothing")"
                ))
        }
        return violations + world.leftovers(cancelled)
    }
    report.record()
}

/// downloadArchive with its request failing, as a lost connection or as an error status: the
/// error is thrown, last time's archive is kept, no temporary file is left, and the next call
/// saves the new archive.
private func downloadAtEveryFailurePoint(
    failing failure: ScriptedResponse, expected: String, _ isExpected: @escaping @Sendable (any Error) -> Bool
) async {
    let report = await exploreFailurePoints(
        "downloadArchive, with last time's archive at the destination, the request failing with \(expected)",
        world: { plan in
            let world = DownloadWorld()
            world.server.failRequests(per: plan, with: failure)
            return world
        },
        operation: { try await $0.download() }
    ) { run, world in
        var violations = repeatedRequests(run.calls, in: "downloadArchive()", section: downloadSection)
        violations += repeatedRequests(run.recoveryCalls, in: "downloadArchive()", section: downloadSection)
        let before = world.savedBeforeEachCall
        let savedAfterFirst = before.count > 1 ? before[1] : world.saved
        switch (run.failingCall, run.outcome) {
        case (nil, .success(.some("archive v2"))?):
            break
        case (.some, .failure(let error)?) where isExpected(error) && savedAfterFirst == "archive v1":
            break
        case (nil, .failure?) where savedAfterFirst == "archive v1":
            violations.append(notReplaced("", run.outcome, kept: "archive v1"))
        default:
            violations.append(
                Violation(
                    Bugs.archiveWrong,
                    "downloadArchive(): \(describeOutcome(run.outcome)), expected \(run.isBaseline ? "the archive" : expected); the destination then held: \(savedAfterFirst ?? "nothing")"
                ))
        }
        if case .failure? = run.recovery, let kept = savedAfterFirst, world.saved == kept {
            violations.append(notReplaced("Called again with no failure, ", run.recovery, kept: kept))
        } else if run.recovery?.value != "archive v3" {
            violations.append(
                Violation(
                    Bugs.archiveWrong,
                    "Called again with no failure, downloadArchive(): \(describeOutcome(run.recovery)); the destination holds: \(world.saved ?? "nothing")"
                ))
        }
        return violations
            + world.leftovers(run.isBaseline ? "Without a failure" : "After the failure and the next call")
    }
    report.record()
}

// MARK: - uploadPhoto

private let uploadSection = "An upload has no method of its own"

/// A server that answers an upload with 201 and photo 7's summary, and a session to it.
private struct UploadWorld: Sendable {
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0])
    let server = SimulatedHTTPServer()
    let session: SimulatedURLSession

    init() {
        server.respond(to: "/photos", with: .json(harbourJSON, status: 201))
        session = SimulatedURLSession(server: server)
    }

    func upload() async throws -> PhotoSummary {
        try await uploadPhoto(Self.jpeg, to: server.baseURL, using: session)
    }
}

/// An upload that should have gone through: `POST /photos` received once with the JPEG, and the photo returned.
private func uploaded(
    _ when: String, _ outcome: Result<PhotoSummary, any Error>?, received: [String], bodies: [Data]
) -> [Violation] {
    if case .failure(let error as URLError)? = outcome, error.code == .dataLengthExceedsMaximum, received.isEmpty {
        return [Violation(Bugs.uploadSentAsGET, "\(when), uploadPhoto(): \(describeOutcome(outcome)).")]
    }
    if case .success(harbour)? = outcome, received == ["POST /photos"], bodies == [UploadWorld.jpeg] { return [] }
    return repeatedRequests(received, in: "uploadPhoto()", section: uploadSection).first.map { [$0] } ?? [
        Violation(
            Bugs.uploadWrong,
            "\(when), uploadPhoto(): \(describeOutcome(outcome)); the server received: \(received)")
    ]
}

/// uploadPhoto, cancelled before the call and after every step: nothing sent after the cancel,
/// the transfer in flight cancelled at the server, a cancellation error, or the photo if the
/// cancel came after the answer.
private func uploadAtEveryCancelPoint() async {
    let report = await exploreCancelPoints(
        "uploadPhoto of a JPEG",
        world: { probe in
            let world = UploadWorld()
            observeSteps(of: world.server, ["/photos"], with: probe)
            return world
        },
        operation: { try await $0.upload() }
    ) { run, world in
        let received = world.server.receivedRequests
        guard let point = run.cancelAfter else {
            return uploaded("Without a cancel", run.outcome, received: received, bodies: world.server.receivedBodies)
        }
        var violations = repeatedRequests(received, in: "uploadPhoto()", section: uploadSection)
        let late = run.stepsAfterCancel.filter { $0.hasPrefix("the server receives ") }
        if !late.isEmpty {
            violations.append(Violation(Bugs.uploadIgnoresCancel, "After the cancel: \(late)"))
        }
        if let request = requestInFlight(run, of: world.server), !(await cancelledAtServer(request, world.server)) {
            violations.append(
                Violation(
                    Bugs.uploadIgnoresCancel,
                    "The caller was cancelled while \(request) was on its way, and the server never saw that transfer cancelled."
                ))
        }
        switch run.outcome {
        case .failure(let error)? where isCancellation(error):
            break
        // Cancelled after the server answered, the photo exists: returning it is allowed too.
        case .success(harbour)? where point > 0 && point == run.steps.count:
            break
        case nil where !violations.isEmpty:
            break
        default:
            violations.append(
                Violation(
                    Bugs.uploadIgnoresCancel,
                    "After a cancel at point \(point), uploadPhoto(): \(describeOutcome(run.outcome))."))
        }
        return violations
    }
    report.record()
}

/// uploadPhoto with its request failing, as a lost connection or as 503: the error is thrown as
/// it is (not retried: the lost POST may have created the photo already), and the next call uploads.
private func uploadAtEveryFailurePoint(
    failing failure: ScriptedResponse, expected: String, otherwise lesson: Lesson,
    _ isExpected: @escaping @Sendable (any Error) -> Bool
) async {
    let report = await exploreFailurePoints(
        "uploadPhoto of a JPEG, the request failing with \(expected)",
        world: { plan in
            let world = UploadWorld()
            world.server.failRequests(per: plan, with: failure)
            return world
        },
        operation: { try await $0.upload() }
    ) { run, world in
        let received = world.server.receivedRequests
        let bodies = world.server.receivedBodies
        // The requests of the first run, as the server received them; the rest are the next call's.
        let first = run.calls.count
        var violations: [Violation]
        if run.isBaseline {
            violations = uploaded(
                "Without a failure", run.outcome, received: Array(received.prefix(first)),
                bodies: Array(bodies.prefix(first)))
        } else {
            violations = repeatedRequests(run.calls, in: "uploadPhoto()", section: uploadSection)
            if case .failure(let error)? = run.outcome, isExpected(error) {
            } else if violations.isEmpty {
                violations.append(
                    Violation(
                        lesson,
                        "\(run.failedCall ?? "The upload") failed with \(expected), and then uploadPhoto(): \(describeOutcome(run.outcome))."
                    ))
            }
        }
        return violations
            + uploaded(
                "Called again with no failure", run.recovery, received: Array(received.dropFirst(first)),
                bodies: Array(bodies.dropFirst(first)))
    }
    report.record()
}

// MARK: - The tests

@Suite("Chapter 06: the contract at every cancel point and every failure point")
struct AsyncNetworkingContractTests {
    @Test(
        "loadPhotoPage, cancelled at any step, stops its transfer and starts no request; a failed request is thrown as it is",
        .exposesBug(Bugs.startsWhenAlreadyCancelled, Bugs.secondRequestStarted, Bugs.transferNotCancelled))
    func pageAtEveryCancelPointAndFailurePoint() async {
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .success, Bugs.crashed.comment) { [log = log as CrashLog] in
                await log.runScenario {
                    await pageAtEveryCancelPoint()
                    await pageAtEveryFailurePoint()
                }
            }
        }
        let last = log.contents.split(separator: "\n").last { $0.hasPrefix(runMarker) }
        log.explain(
            run, as: Bugs.crashed,
            detail: last.map { "  The process ended during this run: \($0.dropFirst(runMarker.count))." })
    }

    @Test(
        "downloadArchive, cancelled at any step or failing, keeps or replaces the archive and leaves no temporary file",
        .exposesBug(Bugs.destinationNotReplaced, Bugs.temporaryFileLeft))
    func downloadAtEveryCancelPointAndFailurePoint() async {
        await downloadAtEveryCancelPoint()
        await downloadAtEveryFailurePoint(failing: .failure(.networkConnectionLost), expected: "URLError -1005") {
            ($0 as? URLError)?.code == .networkConnectionLost
        }
        await downloadAtEveryFailurePoint(
            failing: .status(503, body: Data("down for maintenance".utf8)), expected: "unexpectedStatus(503)"
        ) { ($0 as? PhotoAPIError) == .unexpectedStatus(503) }
    }

    @Test(
        "uploadPhoto, cancelled at any step or failing, throws as it should, and the next upload goes through",
        .exposesBug(Bugs.uploadSentAsGET))
    func uploadAtEveryCancelPointAndFailurePoint() async {
        await uploadAtEveryCancelPoint()
        await uploadAtEveryFailurePoint(
            failing: .failure(.networkConnectionLost), expected: "URLError -1005", otherwise: Bugs.uploadWrong
        ) { ($0 as? URLError)?.code == .networkConnectionLost }
        await uploadAtEveryFailurePoint(
            failing: .status(503, body: Data("down for maintenance".utf8)), expected: "unexpectedStatus(503)",
            otherwise: Bugs.notSuccessAccepted
        ) { ($0 as? PhotoAPIError) == .unexpectedStatus(503) }
    }
}
