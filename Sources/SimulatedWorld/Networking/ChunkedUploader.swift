/// One file to upload, cut into chunks that are sent one after the other.
public struct UploadFile: Sendable, Hashable, Codable {
    public let name: String
    /// How many chunks the file is cut into; at least one.
    public let chunkCount: Int

    public init(name: String, chunkCount: Int) {
        self.name = name
        self.chunkCount = chunkCount
    }
}

/// What a finished upload returns.
public struct UploadReceipt: Sendable, Hashable, Codable {
    public let fileName: String
    /// How many chunks the server accepted.
    public let chunksSent: Int

    public init(fileName: String, chunksSent: Int) {
        self.fileName = fileName
        self.chunksSent = chunksSent
    }
}

/// The failure the server answers a chunk with when the network drops it. Worth a retry.
public struct TransientUploadError: Error, Sendable, Hashable, CustomStringConvertible {
    public let chunk: Int

    public init(chunk: Int) { self.chunk = chunk }

    public var description: String { "TransientUploadError(chunk: \(chunk))" }
}

/// The dependencies the uploader reads from the task it runs in (SE-0311 task-local values).
///
/// Production code leaves them alone; a test binds them around the code under test, for
/// example `UploadDependencies.$clock.withValue(InstantClock()) { … }`, and every task that
/// inherits task-local values (child tasks, `Task { }`) sees the test's value.
/// `Task.detached` inherits none, so code in a detached task sees the defaults again.
public enum UploadDependencies {
    /// The clock the uploader waits on: for the network's latency, and before a retry.
    /// By default the real `ContinuousClock`, on which the simulated network is very slow.
    @TaskLocal public static var clock: any Clock<Duration> = ContinuousClock()
}

/// The server the uploader sends chunks to, as a test sets it up.
///
/// It records every chunk it accepts and every attempt. A test can make it fail one chunk
/// once with ``TransientUploadError``, and hold one request (the n-th it receives) at a
/// ``Gate`` until the test calls ``release()``; a request held in a task that is cancelled
/// throws `CancellationError`, as a real transfer would stop.
public final class ChunkServer: Sendable {
    private struct State {
        var requests = 0
        var attempts: [Int: Int] = [:]
        var received: [Int] = []
        var failedOnce = false
    }

    private let state = Locked(State())
    private let holdingRequest: Int?
    private let failingOnceAtChunk: Int?
    private let gate: Gate
    /// Counts 1 once the request to hold has reached the gate.
    private let heldCount = ObservedCount()

    /// A server that accepts every chunk at once, unless told otherwise:
    /// - `holdingRequest`: the n-th request it receives (counting from 1, across all
    ///   uploads) waits at a gate until ``release()``, or until its task is cancelled;
    /// - `failingOnceAtChunk`: the first attempt to send that chunk fails with
    ///   ``TransientUploadError``; the next one succeeds.
    public init(holdingRequest: Int? = nil, failingOnceAtChunk: Int? = nil) {
        self.holdingRequest = holdingRequest
        self.failingOnceAtChunk = failingOnceAtChunk
        gate = Gate(closed: holdingRequest != nil)
    }

    /// The chunks accepted, in order (chunk numbers count from 1).
    public var received: [Int] { state.withLock { $0.received } }

    /// How many times the uploader tried to send `chunk`, failed attempts included.
    public func attempts(ofChunk chunk: Int) -> Int { state.withLock { $0.attempts[chunk, default: 0] } }

    /// Suspends until the request to hold has arrived and waits at the gate. Returns at
    /// once if it already has. (It never returns on a server that holds nothing.)
    public func requestIsHeld() async {
        await heldCount.reach(1)
    }

    /// Lets the held request through, and every later one.
    public func release() { gate.open() }

    /// Receives one chunk. Called by the uploader.
    func receive(_ chunk: Int) async throws {
        let (request, fails) = state.withLock { state -> (Int, Bool) in
            state.requests += 1
            state.attempts[chunk, default: 0] += 1
            let fails = chunk == failingOnceAtChunk && !state.failedOnce
            if fails { state.failedOnce = true }
            return (state.requests, fails)
        }
        if request == holdingRequest {
            heldCount.increment()
            try await gate.pass()
        }
        try Task.checkCancellation()
        if fails { throw TransientUploadError(chunk: chunk) }
        state.withLock { $0.received.append(chunk) }
    }
}

/// A flaw the workbook builds into an uploader, to see whether a check notices it. Each one
/// breaks one promise of the uploader's contract, and keeps every other.
public enum UploaderFlaw: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Reports progress for every chunk but the last.
    case skipsLastProgress
    /// Reports the progress of every chunk twice.
    case repeatsProgress
    /// Reports, after each chunk, how many chunks were sent before it (0, 1, 2, …): one report
    /// per chunk, in order, but each one short by one.
    case reportsChunksSentBefore
    /// Reports each chunk's progress just before the server accepts it, instead of after.
    case reportsBeforeAccepting
    /// Retries a failed chunk at once, without waiting ``ChunkedUploader/retryDelay``.
    case retriesAtOnce
    /// Waits a second before it retries a failed chunk, not ``ChunkedUploader/retryDelay``.
    case waitsTheWrongDelay
    /// After a failed chunk, waits the retry delay and sends the whole file again from its
    /// first chunk.
    case restartsAfterFailure
    /// Gives up at the first failed chunk and throws its error.
    case neverRetries
    /// Sends the chunks from a `Task { }` of its own, which the caller's cancel never reaches.
    case ignoresCancellation
    /// Stops at a cancel, but returns a receipt for the chunks sent so far instead of throwing.
    case swallowsCancellation
    /// Looks at cancellation only after each chunk: the chunk in flight when the cancel comes
    /// is still sent (in a task of its own) and accepted, then the upload throws.
    case sendsTheChunkInFlight
    /// Stops at a cancel, but throws ``TransientUploadError`` instead of `CancellationError`.
    case throwsAnotherErrorOnCancel
    /// Lets a second upload start while one is still running, instead of trapping.
    case allowsOverlappingUploads

    public var description: String {
        switch self {
        case .skipsLastProgress: "reports progress for every chunk but the last"
        case .repeatsProgress: "reports the progress of every chunk twice"
        case .reportsChunksSentBefore: "reports each chunk one short: 0, 1, 2 instead of 1, 2, 3"
        case .reportsBeforeAccepting: "reports each chunk's progress before the server has accepted it"
        case .retriesAtOnce: "retries a failed chunk at once, without waiting the retry delay"
        case .waitsTheWrongDelay: "waits one second, not the retry delay, before it retries a failed chunk"
        case .restartsAfterFailure: "starts the whole file again from its first chunk after a failed chunk"
        case .neverRetries: "gives up at the first failed chunk instead of retrying it"
        case .ignoresCancellation: "goes on sending every chunk after its task is cancelled"
        case .swallowsCancellation: "stops at a cancel but returns a receipt instead of throwing CancellationError"
        case .sendsTheChunkInFlight: "still sends the chunk in flight after a cancel, then throws CancellationError"
        case .throwsAnotherErrorOnCancel:
            "stops at a cancel but throws TransientUploadError instead of CancellationError"
        case .allowsOverlappingUploads:
            "lets a second upload run while the first is still in flight, instead of trapping"
        }
    }
}

/// How a correct uploader may go about its work without breaking its contract. Chapter 20's
/// contract suite runs each check against uploaders of many shapes, so that no check can depend
/// on how many hops the work takes, which task the reports come from, or when exactly within
/// the contract they come.
public struct UploaderShape: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The task `progress` is called from.
    public enum ReportContext: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
        /// The upload's own task.
        case uploadTask
        /// A `Task { }` the uploader starts for each report and awaits: another task, maybe
        /// another thread, with the caller's task-local values.
        case otherTask
        /// A `Task.detached { }` the uploader awaits: another task, without the caller's
        /// task-local values (as a callback from a system framework would be).
        case detachedTask

        public var description: String {
            switch self {
            case .uploadTask: "its own task"
            case .otherTask: "another task"
            case .detachedTask: "a detached task"
            }
        }
    }

    /// How many times the uploader hops (`Task.yield()`) before each chunk crosses the network.
    public var hops: Int
    /// The task `progress` is called from.
    public var reportsFrom: ReportContext
    /// Whether `progress(n)` comes as late as the contract allows: just before chunk n + 1
    /// reaches the server, or just before the upload returns or throws; otherwise right after
    /// the server accepted chunk n.
    public var reportsLate: Bool

    public init(hops: Int = 0, reportsFrom: ReportContext = .uploadTask, reportsLate: Bool = false) {
        self.hops = hops
        self.reportsFrom = reportsFrom
        self.reportsLate = reportsLate
    }

    /// The shape of ``UploaderBuild/correct``: no extra hop, reports from the upload's task at once.
    public static let plain = UploaderShape()

    public var description: String {
        "yields \(hops)× per chunk, reports from \(reportsFrom), \(reportsLate ? "as late as allowed" : "at once")"
    }

    /// The shape as Swift code, to paste into a test that replays a run.
    public var code: String {
        "UploaderShape(hops: \(hops), reportsFrom: .\(reportsFrom.rawValue), reportsLate: \(reportsLate))"
    }
}

/// Which uploader a check runs against: the correct one, or one with a flaw, in the plain shape
/// or another.
///
/// `Codable`, so that an exit test can take it into its child process:
/// `#expect(processExitsWith: …) { [build = build as UploaderBuild] in … }`.
public enum UploaderBuild: Sendable, Hashable, Codable, CustomStringConvertible {
    case correct
    case flawed(UploaderFlaw)
    /// An uploader of another shape: correct when `flaw` is nil.
    case shaped(UploaderShape, flaw: UploaderFlaw? = nil)

    /// An uploader of this build that sends to `server`.
    public func makeUploader(server: ChunkServer) -> ChunkedUploader {
        switch self {
        case .correct: ChunkedUploader(server: server)
        case .flawed(let flaw): ChunkedUploader(server: server, flaw: flaw)
        case .shaped(let shape, let flaw): ChunkedUploader(server: server, flaw: flaw, shape: shape)
        }
    }

    public var description: String {
        switch self {
        case .correct: "the correct uploader"
        case .flawed(let flaw): "an uploader that \(flaw)"
        case .shaped(let shape, nil): "a correct uploader that \(shape)"
        case .shaped(let shape, let flaw?): "an uploader that \(flaw) (\(shape))"
        }
    }

    /// The build as Swift code, to paste into a test that replays a run.
    public var code: String {
        switch self {
        case .correct: ".correct"
        case .flawed(let flaw): ".flawed(.\(flaw.rawValue))"
        case .shaped(let shape, nil): ".shaped(\(shape.code))"
        case .shaped(let shape, let flaw?): ".shaped(\(shape.code), flaw: .\(flaw.rawValue))"
        }
    }
}

/// The code under test in chapter 20: uploads a file chunk by chunk.
///
/// Its contract:
/// - each chunk crosses the network, which takes ``latency`` on `UploadDependencies.clock`
///   (an hour on the real clock: the simulated network is slow on purpose, so that only a
///   test that injects a clock ever sees an upload finish);
/// - after the server accepts chunk n, it calls `progress(n)`: once per chunk, in order,
///   before chunk n + 1 reaches the server and before the upload returns;
/// - a chunk that fails with ``TransientUploadError`` is sent again once, after waiting
///   ``retryDelay`` on the clock; a second failure is thrown;
/// - when its task is cancelled, it sends no further chunk and throws `CancellationError`;
/// - one upload at a time: starting a second upload while one is in flight is a
///   programming error, and traps.
public final class ChunkedUploader: Sendable {
    /// Counts the steps of the uploads started while it is bound (a hop, a chunk's latency), so
    /// that a test waiting for an upload can tell a slow one from a stuck one: while the count
    /// moves, the upload is working. Uploads started in tasks that inherit task-local values
    /// count; one started in a detached task doesn't.
    @TaskLocal public static var steps: ObservedCount?

    /// How long a chunk takes to cross the network, on `UploadDependencies.clock`.
    public static let latency: Duration = .seconds(3600)
    /// How long the uploader waits before it sends a failed chunk again.
    public static let retryDelay: Duration = .seconds(10)

    private let server: ChunkServer
    private let flaw: UploaderFlaw?
    private let shape: UploaderShape
    private let uploading = Locked(false)

    init(server: ChunkServer, flaw: UploaderFlaw? = nil, shape: UploaderShape = .plain) {
        self.server = server
        self.flaw = flaw
        self.shape = shape
    }

    /// Uploads `file`, calling `progress` with the number of chunks sent after each chunk.
    /// Traps if another upload of this uploader is still running.
    public func upload(
        _ file: UploadFile, progress: @escaping @Sendable (Int) -> Void = { _ in }
    ) async throws -> UploadReceipt {
        let alreadyUploading = uploading.withLock { uploading in
            defer { uploading = true }
            return uploading
        }
        if alreadyUploading && flaw != .allowsOverlappingUploads {
            preconditionFailure(
                "ChunkedUploader: one upload at a time; \"\(file.name)\" started while another was in flight")
        }
        defer { uploading.withLock { $0 = false } }
        let reports = Reports(shape: shape, progress: progress)
        if flaw == .ignoresCancellation {
            // Task { } inherits the task-local clock, but not the caller's cancellation.
            return try await Task { try await sendReporting(file, reports: reports) }.value
        }
        return try await sendReporting(file, reports: reports)
    }

    /// Sends `file`, and makes the report held back (late shape) however the sending ends.
    private func sendReporting(_ file: UploadFile, reports: Reports) async throws -> UploadReceipt {
        do {
            let receipt = try await send(file, reports: reports)
            await reports.flush()
            return receipt
        } catch {
            await reports.flush()
            throw error
        }
    }

    private func send(_ file: UploadFile, reports: Reports) async throws -> UploadReceipt {
        let clock = UploadDependencies.clock
        let chunks = max(1, file.chunkCount)
        var restarted = false
        var chunk = 1
        while chunk <= chunks {
            if flaw == .reportsBeforeAccepting { await reports.report(chunk, late: false) }
            do {
                if flaw == .sendsTheChunkInFlight {
                    // The chunk goes in a task of its own, which the caller's cancel never reaches.
                    let current = chunk
                    try await Task { try await sendWithRetry(current, on: clock, reports: reports) }.value
                    try Task.checkCancellation()
                } else {
                    try await sendWithRetry(chunk, on: clock, reports: reports)
                }
            } catch is CancellationError where flaw == .swallowsCancellation {
                return UploadReceipt(fileName: file.name, chunksSent: chunk - 1)
            } catch is CancellationError where flaw == .throwsAnotherErrorOnCancel {
                throw TransientUploadError(chunk: chunk)
            } catch is TransientUploadError where flaw == .restartsAfterFailure && !restarted {
                restarted = true
                try await clock.sleep(for: Self.retryDelay)
                chunk = 1
                continue
            }
            switch flaw {
            case .skipsLastProgress where chunk == file.chunkCount, .reportsBeforeAccepting:
                break
            case .repeatsProgress:
                await reports.report(chunk, late: false)
                await reports.report(chunk, late: false)
            case .reportsChunksSentBefore:
                await reports.report(chunk - 1)
            default:
                await reports.report(chunk)
            }
            chunk += 1
        }
        return UploadReceipt(fileName: file.name, chunksSent: file.chunkCount)
    }

    private func sendWithRetry(_ chunk: Int, on clock: any Clock<Duration>, reports: Reports) async throws {
        do {
            try await cross(chunk, on: clock, reports: reports)
        } catch is TransientUploadError where flaw != .neverRetries && flaw != .restartsAfterFailure {
            switch flaw {
            case .retriesAtOnce: break
            case .waitsTheWrongDelay: try await clock.sleep(for: .seconds(1))
            default: try await clock.sleep(for: Self.retryDelay)
            }
            try await cross(chunk, on: clock, reports: reports)
        }
    }

    /// One request: the hops of the shape, the network's latency, the report held back for
    /// this moment (in the late shape), then the server.
    private func cross(_ chunk: Int, on clock: any Clock<Duration>, reports: Reports) async throws {
        let steps = ChunkedUploader.steps
        for _ in 0..<shape.hops {
            await Task.yield()
            steps?.increment()
        }
        try await clock.sleep(for: Self.latency)
        steps?.increment()
        await reports.flush()
        try await server.receive(chunk)
    }
}

/// The progress reports of one upload, made from the task and at the moment its shape says.
private final class Reports: Sendable {
    private let shape: UploaderShape
    private let progress: @Sendable (Int) -> Void
    /// A report held back until the next request or the end (late shape only).
    private let pending = Locked<Int?>(nil)

    init(shape: UploaderShape, progress: @escaping @Sendable (Int) -> Void) {
        self.shape = shape
        self.progress = progress
    }

    /// Reports `chunk`: now, or (when `late` and the shape says so) at the next ``flush()``.
    func report(_ chunk: Int, late: Bool = true) async {
        if late && shape.reportsLate {
            await flush()
            pending.withLock { $0 = chunk }
        } else {
            await call(chunk)
        }
    }

    /// Makes the report held back, if any.
    func flush() async {
        let held = pending.withLock { held in
            defer { held = nil }
            return held
        }
        guard let chunk = held else { return }
        await call(chunk)
    }

    private func call(_ chunk: Int) async {
        let progress = progress
        switch shape.reportsFrom {
        case .uploadTask: progress(chunk)
        case .otherTask: await Task { progress(chunk) }.value
        case .detachedTask: await Task.detached { progress(chunk) }.value
        }
    }
}

/// A clock for tests on which every sleep ends at once, after moving the clock's time
/// forward to the sleep's deadline (it checks for cancellation first, like `Task.sleep`).
///
/// Code that waits an hour on it finishes at once, and the test can still see how long it
/// waited: ``now`` is the total time slept, and ``sleeps`` lists each sleep's duration.
public final class InstantClock: Clock, Sendable {
    /// A moment on an ``InstantClock``: the time since the clock was made.
    public struct Instant: InstantProtocol, Sendable, Hashable, Comparable {
        public let offset: Duration

        public init(offset: Duration) { self.offset = offset }

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let state = Locked((now: Instant(offset: .zero), sleeps: [Duration]()))

    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// Every sleep so far, in order, by how long it moved the clock forward.
    public var sleeps: [Duration] { state.withLock { $0.sleeps } }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        state.withLock { state in
            state.sleeps.append(state.now.duration(to: max(deadline, state.now)))
            state.now = max(deadline, state.now)
        }
    }
}
