import SimulatedWorld
import Testing
import WorkbookTesting

@Suite("Simulated world: the chunked uploader, its server, its flaws and the instant clock")
struct ChunkedUploaderTests {
    let file = UploadFile(name: "pier.jpg", chunkCount: 3)

    /// Uploads `file` with `build` on an instant clock; returns the outcome, the reports and the clock.
    func upload(
        _ build: UploaderBuild, server: ChunkServer
    ) async -> (Result<UploadReceipt, any Error>, [Int], InstantClock) {
        await upload(build, server: server) { $0 }
    }

    /// Uploads `file` with `build` on an instant clock; returns the outcome, what `note` made
    /// of each report when it came, and the clock.
    func upload<Note: Sendable>(
        _ build: UploaderBuild, server: ChunkServer, note: @escaping @Sendable (Int) -> Note
    ) async -> (Result<UploadReceipt, any Error>, [Note], InstantClock) {
        let clock = InstantClock()
        let reports = Locked<[Note]>([])
        let uploader = build.makeUploader(server: server)
        let result = await Result {
            try await UploadDependencies.$clock.withValue(clock) {
                try await uploader.upload(file) { chunk in
                    let noted = note(chunk)
                    reports.withLock { $0.append(noted) }
                }
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

    @Test("While steps is bound, an upload counts each hop and each chunk's latency, and nothing without it")
    func stepsAreCounted() async throws {
        let steps = ObservedCount()
        let shape = UploaderShape(hops: 4)
        let (counted, _, _) = await ChunkedUploader.$steps.withValue(steps) {
            await upload(.shaped(shape), server: ChunkServer())
        }
        _ = try counted.get()
        #expect(steps.value == file.chunkCount * (shape.hops + 1))
        let (unbound, _, _) = await upload(.shaped(shape), server: ChunkServer())
        _ = try unbound.get()
        #expect(steps.value == file.chunkCount * (shape.hops + 1))
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
        let (_, short, _) = await upload(.flawed(.reportsChunksSentBefore), server: ChunkServer())
        #expect(short == [0, 1, 2])
        let early = ChunkServer()
        let (_, seen, _) = await upload(.flawed(.reportsBeforeAccepting), server: early) { _ in early.received }
        #expect(seen == [[], [1], [1, 2]])
        let latency = ChunkedUploader.latency
        let (wrongDelay, _, waits) = await upload(
            .flawed(.waitsTheWrongDelay), server: ChunkServer(failingOnceAtChunk: 2))
        #expect(try wrongDelay.get().chunksSent == 3)
        #expect(waits.sleeps == [latency, latency, .seconds(1), latency, latency])
        let again = ChunkServer(failingOnceAtChunk: 2)
        let (restarted, restartReports, restartClock) = await upload(.flawed(.restartsAfterFailure), server: again)
        #expect(try restarted.get().chunksSent == 3)
        #expect(again.received == [1, 1, 2, 3] && restartReports == [1, 1, 2, 3])
        #expect(restartClock.sleeps == [latency, latency, ChunkedUploader.retryDelay, latency, latency, latency])
    }

    @Test("Every shape of the correct uploader keeps the contract: each report after its chunk, before the next, once")
    func shapes() async throws {
        let latency = ChunkedUploader.latency
        for hops in [0, 1, 40] {
            for context in UploaderShape.ReportContext.allCases {
                for late in [false, true] {
                    let shape = UploaderShape(hops: hops, reportsFrom: context, reportsLate: late)
                    // Whichever chunk fails (or none), the same reports, chunks and waits.
                    for failing in [nil, 1, 2, 3] {
                        let server = ChunkServer(failingOnceAtChunk: failing)
                        let (result, seen, clock) = await upload(.shaped(shape), server: server) { chunk in
                            (chunk, server.received)
                        }
                        let run = "\(shape), failing chunk \(failing.map(String.init) ?? "none")"
                        #expect(try result.get().chunksSent == 3, "\(run)")
                        #expect(seen.map(\.0) == [1, 2, 3], "\(run)")
                        #expect(seen.map(\.1) == [[1], [1, 2], [1, 2, 3]], "\(run)")
                        let waits =
                            failing.map {
                                Array(repeating: latency, count: $0) + [ChunkedUploader.retryDelay]
                                    + Array(repeating: latency, count: 4 - $0)
                            } ?? Array(repeating: latency, count: 3)
                        #expect(clock.sleeps == waits, "\(run)")
                    }
                }
            }
        }
    }

    @Test("Cancelled while a chunk is held: the correct uploader throws, the flawed ones go on, hide it or change it")
    func cancellation() async throws {
        let builds: [UploaderBuild] = [
            .correct, .flawed(.ignoresCancellation), .flawed(.swallowsCancellation), .flawed(.sendsTheChunkInFlight),
            .flawed(.throwsAnotherErrorOnCancel),
        ]
        for build in builds {
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
            case .flawed(.sendsTheChunkInFlight):
                #expect(throws: CancellationError.self) { try result.get() }
                #expect(server.received == [1, 2])
            case .flawed(.throwsAnotherErrorOnCancel):
                #expect(throws: TransientUploadError(chunk: 2)) { try result.get() }
                #expect(server.received == [1])
            default:
                #expect(throws: CancellationError.self) { try result.get() }
                #expect(server.received == [1])
            }
        }
    }

    /// A cancel after every progress report (and before the call), explored for `build`: a
    /// correct uploader throws `CancellationError` (or returns, when the cancel came after its
    /// last report) and the server accepts no chunk after the cancel.
    func cancelledAtEveryReport(_ build: UploaderBuild) async -> ExplorationReport {
        let broken = Lesson(
            chapter: "20-TestingConcurrentCode", bug: "the uploader breaks its cancel contract",
            explanation: "a cancelled upload throws CancellationError and sends no further chunk",
            section: "The uploader and its checks")
        let file = file
        return await exploreCancelPoints(
            "upload of \(file.chunkCount) chunks by \(build)",
            world: { probe in
                let server = ChunkServer()
                return (server, build.makeUploader(server: server), probe, Locked<[Int]?>(nil))
            },
            operation: { world in
                let (server, uploader, probe, atCancel) = world
                return try await UploadDependencies.$clock.withValue(InstantClock()) {
                    try await uploader.upload(file) { chunk in
                        probe.step("progress \(chunk)")
                        if probe.cancelMade { atCancel.withLock { $0 = $0 ?? server.received } }
                    }
                }
            }
        ) { run, world in
            let (server, _, _, atCancel) = world
            guard let outcome = run.outcome else { return [Violation(broken, describeOutcome(run.outcome))] }
            guard let point = run.cancelAfter else {
                return outcome.value?.chunksSent == 3 && server.received == [1, 2, 3]
                    ? []
                    : [
                        Violation(
                            broken, "without a cancel: \(describeOutcome(outcome)), server got \(server.received)")
                    ]
            }
            var violations: [Violation] = []
            let accepted = point == 0 ? [] : atCancel.withLock { $0 } ?? []
            if server.received != accepted {
                violations.append(
                    Violation(broken, "the server had \(accepted) at the cancel, \(server.received) after"))
            }
            switch outcome {
            case .failure(let error) where error is CancellationError: break
            case .success where point == file.chunkCount: break
            default: violations.append(Violation(broken, "cancelled after step \(point): \(describeOutcome(outcome))"))
            }
            return violations
        }
    }

    @Test(
        "Every shape of the correct uploader keeps the cancel contract at every cancel point; each cancel flaw breaks it"
    )
    func cancelAtEveryPoint() async {
        for hops in [0, 1, 40] {
            for context in UploaderShape.ReportContext.allCases {
                for late in [false, true] {
                    let shape = UploaderShape(hops: hops, reportsFrom: context, reportsLate: late)
                    let report = await cancelledAtEveryReport(.shaped(shape))
                    #expect(report.passed && report.runs == 5, "\(shape): \(report.findings)")
                }
            }
        }
        let flaws: [UploaderFlaw] = [
            .ignoresCancellation, .swallowsCancellation, .sendsTheChunkInFlight, .throwsAnotherErrorOnCancel,
        ]
        for flaw in flaws {
            #expect(!(await cancelledAtEveryReport(.shaped(.plain, flaw: flaw))).passed, "\(flaw)")
        }
    }

    @Test("A second upload in flight traps, unless the uploader allows overlapping uploads")
    func oneUploadAtATime() async {
        await offThePool {
            await #expect(processExitsWith: .failure) {
                let server = ChunkServer(holdingRequest: 1)
                let uploader = UploaderBuild.correct.makeUploader(server: server)
                try await UploadDependencies.$clock.withValue(InstantClock()) {
                    async let _ = uploader.upload(UploadFile(name: "a.jpg", chunkCount: 1))
                    await server.requestIsHeld()
                    _ = try await uploader.upload(UploadFile(name: "b.jpg", chunkCount: 1))
                }
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
