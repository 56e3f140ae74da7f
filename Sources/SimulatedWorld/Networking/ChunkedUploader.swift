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

/// A flaw the workbook builds into an uploader, to see whether a check notices it.
public enum UploaderFlaw: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Reports progress for every chunk but the last.
    case skipsLastProgress
    /// Reports the progress of every chunk twice.
    case repeatsProgress
    /// Retries a failed chunk at once, without waiting ``ChunkedUploader/retryDelay``.
    case retriesAtOnce
    /// Gives up at the first failed chunk and throws its error.
    case neverRetries
    /// Sends the chunks from a `Task { }` of its own, which the caller's cancel never reaches.
    case ignoresCancellation
    /// Stops at a cancel, but returns a receipt for the chunks sent so far instead of throwing.
    case swallowsCancellation
    /// Lets a second upload start while one is still running, instead of trapping.
    case allowsOverlappingUploads

    public var description: String {
        switch self {
        case .skipsLastProgress: "reports progress for every chunk but the last"
        case .repeatsProgress: "reports the progress of every chunk twice"
        case .retriesAtOnce: "retries a failed chunk at once, without waiting the retry delay"
        case .neverRetries: "gives up at the first failed chunk instead of retrying it"
        case .ignoresCancellation: "goes on sending every chunk after its task is cancelled"
        case .swallowsCancellation: "stops at a cancel but returns a receipt instead of throwing CancellationError"
        case .allowsOverlappingUploads:
            "lets a second upload run while the first is still in flight, instead of trapping"
        }
    }
}

/// Which uploader a check runs against: the correct one, or one with a flaw.
///
/// `Codable`, so that an exit test can take it into its child process:
/// `#expect(processExitsWith: …) { [build = build as UploaderBuild] in … }`.
public enum UploaderBuild: Sendable, Hashable, Codable, CustomStringConvertible {
    case correct
    case flawed(UploaderFlaw)

    /// An uploader of this build that sends to `server`.
    public func makeUploader(server: ChunkServer) -> ChunkedUploader {
        switch self {
        case .correct: ChunkedUploader(server: server)
        case .flawed(let flaw): ChunkedUploader(server: server, flaw: flaw)
        }
    }

    public var description: String {
        switch self {
        case .correct: "the correct uploader"
        case .flawed(let flaw): "an uploader that \(flaw)"
        }
    }
}

/// The code under test in chapter 20: uploads a file chunk by chunk.
///
/// Its contract:
/// - each chunk crosses the network, which takes ``latency`` on `UploadDependencies.clock`
///   (an hour on the real clock: the simulated network is slow on purpose, so that only a
///   test that injects a clock ever sees an upload finish);
/// - after the server accepts chunk n, it calls `progress(n)`: once per chunk, in order;
/// - a chunk that fails with ``TransientUploadError`` is sent again once, after waiting
///   ``retryDelay`` on the clock; a second failure is thrown;
/// - when its task is cancelled, it sends no further chunk and throws `CancellationError`;
/// - one upload at a time: starting a second upload while one is in flight is a
///   programming error, and traps.
public final class ChunkedUploader: Sendable {
    /// How long a chunk takes to cross the network, on `UploadDependencies.clock`.
    public static let latency: Duration = .seconds(3600)
    /// How long the uploader waits before it sends a failed chunk again.
    public static let retryDelay: Duration = .seconds(10)

    private let server: ChunkServer
    private let flaw: UploaderFlaw?
    private let uploading = Locked(false)

    init(server: ChunkServer, flaw: UploaderFlaw? = nil) {
        self.server = server
        self.flaw = flaw
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
        if flaw == .ignoresCancellation {
            // Task { } inherits the task-local clock, but not the caller's cancellation.
            return try await Task { try await send(file, progress: progress) }.value
        }
        return try await send(file, progress: progress)
    }

    private func send(_ file: UploadFile, progress: @Sendable (Int) -> Void) async throws -> UploadReceipt {
        let clock = UploadDependencies.clock
        for chunk in 1...max(1, file.chunkCount) {
            do {
                try await sendWithRetry(chunk, on: clock)
            } catch is CancellationError where flaw == .swallowsCancellation {
                return UploadReceipt(fileName: file.name, chunksSent: chunk - 1)
            }
            if flaw == .skipsLastProgress && chunk == file.chunkCount { continue }
            progress(chunk)
            if flaw == .repeatsProgress { progress(chunk) }
        }
        return UploadReceipt(fileName: file.name, chunksSent: file.chunkCount)
    }

    private func sendWithRetry(_ chunk: Int, on clock: any Clock<Duration>) async throws {
        do {
            try await clock.sleep(for: Self.latency)
            try await server.receive(chunk)
        } catch is TransientUploadError where flaw != .neverRetries {
            if flaw != .retriesAtOnce { try await clock.sleep(for: Self.retryDelay) }
            try await clock.sleep(for: Self.latency)
            try await server.receive(chunk)
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
