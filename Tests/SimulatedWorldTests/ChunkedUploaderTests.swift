import SimulatedWorld
import Testing

@Suite("Simulated world: the chunked uploader, its server, its flaws and the instant clock")
struct ChunkedUploaderTests {
    let file = UploadFile(name: "pier.jpg", chunkCount: 3)

    /// Uploads `file` with `build` on an instant clock; returns the outcome, the reports and the clock.
    func upload(
        _ build: UploaderBuild, server: ChunkServer
    ) async -> (Result<UploadReceipt, any Error>, [Int], InstantClock) {
        let clock = InstantClock()
        let reports = Locked<[Int]>([])
        let uploader = build.makeUploader(server: server)
        let result = await Result {
            try await UploadDependencies.$clock.withValue(clock) {
                try await uploader.upload(file) { chunk in reports.withLock { $0.append(chunk) } }
            }
        }
        return (result, reports.withLock { $0 }, clock)
    }

    @Test("The instant clock ends each sleep at once and adds it to its time")
    func instantClock() async throws {
        let clock = InstantClock()
        try await clock.sleep(for: .seconds(5))
        try await clock.sleep(until: clock.now.advanced(by: .seconds(2)))
        #expect(clock.sleeps == [.seconds(5), .seconds(2)])
        #expect(InstantClock.Instant(offset: .zero).duration(to: clock.now) == .seconds(7))
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await cancelled.value }
    }

    @Test("The correct uploader reports each chunk once, after the server accepted it, and retries after the delay")
    func correctUploader() async throws {
        let server = ChunkServer(failingOnceAtChunk: 2)
        let (result, reports, clock) = await upload(.correct, server: server)
        #expect(try result.get() == UploadReceipt(fileName: "pier.jpg", chunksSent: 3))
        #expect(reports == [1, 2, 3])
        #expect(server.received == [1, 2, 3])
        #expect(server.attempts(ofChunk: 2) == 2)
        let latency = ChunkedUploader.latency
        #expect(clock.sleeps == [latency, latency, ChunkedUploader.retryDelay, latency, latency])
    }

    @Test("The flawed uploaders do what their flaw says")
    func flaws() async throws {
        let (_, skipping, _) = await upload(.flawed(.skipsLastProgress), server: ChunkServer())
        #expect(skipping == [1, 2])
        let (_, repeating, _) = await upload(.flawed(.repeatsProgress), server: ChunkServer())
        #expect(repeating == [1, 1, 2, 2, 3, 3])
        let (atOnce, _, clock) = await upload(.flawed(.retriesAtOnce), server: ChunkServer(failingOnceAtChunk: 2))
        #expect(try atOnce.get().chunksSent == 3)
        #expect(!clock.sleeps.contains(ChunkedUploader.retryDelay))
        let (givingUp, _, _) = await upload(.flawed(.neverRetries), server: ChunkServer(failingOnceAtChunk: 2))
        #expect(throws: TransientUploadError(chunk: 2)) { try givingUp.get() }
    }

    @Test("Cancelled while a chunk is held: the correct uploader throws, the flawed ones go on or hide it")
    func cancellation() async throws {
        for build in [UploaderBuild.correct, .flawed(.ignoresCancellation), .flawed(.swallowsCancellation)] {
            let server = ChunkServer(holdingRequest: 2)
            let uploader = build.makeUploader(server: server)
            let upload = Task {
                try await UploadDependencies.$clock.withValue(InstantClock()) { try await uploader.upload(file) }
            }
            await server.requestIsHeld()
            upload.cancel()
            server.release()
            let result = await upload.result
            switch build {
            case .flawed(.ignoresCancellation):
                #expect(try result.get().chunksSent == 3)
                #expect(server.received == [1, 2, 3])
            case .flawed(.swallowsCancellation):
                #expect(try result.get().chunksSent == 1)
                #expect(server.received == [1])
            default:
                #expect(throws: CancellationError.self) { try result.get() }
                #expect(server.received == [1])
            }
        }
    }

    @Test("A second upload in flight traps, unless the uploader allows overlapping uploads")
    func oneUploadAtATime() async {
        await #expect(processExitsWith: .failure) {
            let server = ChunkServer(holdingRequest: 1)
            let uploader = UploaderBuild.correct.makeUploader(server: server)
            try await UploadDependencies.$clock.withValue(InstantClock()) {
                async let _ = uploader.upload(UploadFile(name: "a.jpg", chunkCount: 1))
                await server.requestIsHeld()
                _ = try await uploader.upload(UploadFile(name: "b.jpg", chunkCount: 1))
            }
        }
        let server = ChunkServer(holdingRequest: 1)
        let uploader = UploaderBuild.flawed(.allowsOverlappingUploads).makeUploader(server: server)
        let first = Task {
            try await UploadDependencies.$clock.withValue(InstantClock()) {
                try await uploader.upload(UploadFile(name: "a.jpg", chunkCount: 1))
            }
        }
        await server.requestIsHeld()
        let second = await Result {
            try await UploadDependencies.$clock.withValue(InstantClock()) {
                try await uploader.upload(UploadFile(name: "b.jpg", chunkCount: 1))
            }
        }
        #expect((try? second.get())?.chunksSent == 1)
        first.cancel()
        _ = await first.result
    }
}

extension Result where Failure == any Error {
    fileprivate init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
