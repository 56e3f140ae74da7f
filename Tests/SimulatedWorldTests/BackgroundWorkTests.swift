import SimulatedWorld
import Testing

@Suite("Simulated world: the gate, the disk cache and the background jobs")
struct BackgroundWorkTests {
    @Test("A closed gate holds work until it opens, then lets later work straight through")
    func gateHoldsUntilOpened() async throws {
        let gate = Gate(closed: true)
        let passed = ObservedCount()
        let waiting = Task {
            try await gate.pass()
            passed.increment()
        }
        gate.open()
        try await waiting.value
        try await gate.pass()
        #expect(passed.value == 1)
    }

    @Test("Work cancelled at a closed gate, or arriving cancelled, throws CancellationError")
    func gateSeesCancellation() async {
        let gate = Gate(closed: true)
        let held = Task { try await gate.pass() }
        held.cancel()
        await #expect(throws: CancellationError.self) { try await held.value }
        let late = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await Gate(closed: false).pass()
        }
        await #expect(throws: CancellationError.self) { try await late.value }
    }

    @Test("The cache records each write, with where and at which priority it ran")
    @MainActor
    func cacheRecordsWrites() async {
        let cache = DiskCache()
        cache.write(.expected(for: "a"))
        await Task.detached(priority: .background) { cache.write(.expected(for: "b")) }.value
        let writes = cache.writes
        #expect(writes.map(\.id) == ["a", "b"] && cache.writeCount.value == 2)
        #expect(writes.map(\.onMainActor) == [true, false])
        #expect(writes[1].priority <= .medium)
    }

    @Test("Held jobs are in flight together; cancelling their tasks is counted")
    func jobsHoldAndCancel() async {
        let jobs = BackgroundJobs(holding: true)
        let tasks = BackgroundJobs.Kind.allCases.map { kind in
            Task.detached(priority: .background) { try await jobs.run(kind, for: .expected(for: "x")) }
        }
        await jobs.inFlight.reach(3)
        #expect(Set(jobs.starts.map(\.kind)) == Set(BackgroundJobs.Kind.allCases))
        #expect(jobs.starts.allSatisfy { !$0.onMainActor && $0.priority == .background })
        tasks[0].cancel()
        await jobs.cancelled.reach(1)
        jobs.releaseAll()
        for task in tasks { _ = try? await task.value }
        #expect(jobs.finished.value == 2 && jobs.cancelled.value == 1 && jobs.inFlight.value == 0)
    }

    @Test("A job called from the main actor runs on the main actor")
    @MainActor
    func jobRunsOnTheCallersActor() async throws {
        let jobs = BackgroundJobs()
        try await jobs.run(.log, for: .expected(for: "y"))
        #expect(jobs.starts.first?.onMainActor == true)
    }
}

@Suite("Simulated world: a background job made to fail")
struct BackgroundJobFailureTests {
    @Test("A failed job throws its failure while the other held jobs stay held")
    func oneJobFails() async {
        let jobs = BackgroundJobs(holding: true)
        let tasks = BackgroundJobs.Kind.allCases.map { kind in
            Task.detached { try await jobs.run(kind, for: .expected(for: "z")) }
        }
        await jobs.inFlight.reach(3)
        jobs.fail(.index)
        await #expect(throws: BackgroundJobFailure(kind: .index, id: "z")) { try await tasks[2].value }
        #expect(jobs.failed.value == 1 && jobs.inFlight.value == 2 && jobs.cancelled.value == 0)
        jobs.releaseAll()
        for task in tasks.prefix(2) { _ = try? await task.value }
        #expect(jobs.finished.value == 2 && jobs.inFlight.value == 0)
    }

    @Test("A released job finishes while the other held jobs stay held")
    func oneJobReleased() async {
        let jobs = BackgroundJobs(holding: true)
        let tasks = BackgroundJobs.Kind.allCases.map { kind in
            Task.detached { try await jobs.run(kind, for: .expected(for: "w")) }
        }
        await jobs.inFlight.reach(3)
        jobs.release(.log)
        _ = try? await tasks[1].value
        #expect(jobs.finished.value == 1 && jobs.inFlight.value == 2)
        jobs.releaseAll()
        for task in tasks { _ = try? await task.value }
        #expect(jobs.finished.value == 3 && jobs.inFlight.value == 0)
    }
}
