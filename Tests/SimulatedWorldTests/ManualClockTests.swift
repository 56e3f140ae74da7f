import SimulatedWorld
import Testing

@Suite("Simulated world: the manual clock keeps the contract of Clock")
struct ManualClockTests {
    @Test("Instants add and subtract durations, compare, and start at zero")
    func instantArithmetic() {
        let clock = ManualClock()
        let start = clock.now
        #expect(start == .start && start.offset == .zero)
        let later = start.advanced(by: .seconds(2))
        #expect(later.duration(to: start) == .seconds(-2) && start.duration(to: later) == .seconds(2))
        #expect(start + .seconds(2) == later && later - .seconds(2) == start && later - start == .seconds(2))
        #expect(start < later && !(later < start) && later.advanced(by: .zero) == later)
        #expect(clock.minimumResolution > .zero)
        clock.advance(by: clock.minimumResolution)
        #expect(clock.now > start)
    }

    @Test("Time moves only when the test advances it, and never backwards")
    func timeMovesOnlyWhenTold() {
        let clock = ManualClock()
        #expect(clock.now == clock.now)
        clock.advance(by: .milliseconds(1500))
        #expect(clock.now.offset == .milliseconds(1500))
        clock.advance(to: ManualClock.Instant(offset: .seconds(1)))
        clock.advance(by: .seconds(-1))
        #expect(clock.now.offset == .milliseconds(1500))
        let other = ManualClock(now: ManualClock.Instant(offset: .seconds(10)))
        #expect(other.now.offset == .seconds(10))
    }

    @Test("A sleeper wakes when its deadline is reached, not before")
    func sleeperWakesAtItsDeadline() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
        await clock.waitForSleepers(1)
        #expect(clock.deadlines == [.start + .seconds(1)])
        clock.advance(by: .milliseconds(999))
        #expect(clock.sleeperCount == 1, "999 ms after it fell asleep, the sleeper is still asleep.")
        clock.advance(by: .milliseconds(1))
        #expect(clock.sleeperCount == 0)
        try await sleeper.value
    }

    @Test("A deadline already reached returns at once, and so does a sleep for zero")
    func pastDeadlineReturnsAtOnce() async throws {
        let clock = ManualClock()
        clock.advance(by: .seconds(5))
        try await clock.sleep(until: .start + .seconds(1), tolerance: nil)
        try await clock.sleep(until: clock.now, tolerance: nil)
        try await clock.sleep(for: .zero)
        #expect(clock.sleeperCount == 0)
    }

    @Test("A cancelled sleeper throws CancellationError and leaves the clock; so does one cancelled before it sleeps")
    func sleepHonoursCancellation() async {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        await clock.waitForSleepers(1)
        sleeper.cancel()
        #expect(clock.sleeperCount == 0, "The cancel takes the sleeper off the clock at once.")
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        let late = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            // Like the real clocks: a cancelled task can't sleep, even until a past deadline.
            try await clock.sleep(until: .start, tolerance: nil)
        }
        await #expect(throws: CancellationError.self) { try await late.value }
    }

    @Test("One advance past several deadlines wakes the sleepers in deadline order")
    func sleepersWakeInDeadlineOrder() async throws {
        let clock = ManualClock()
        var sleepers: [Task<Void, any Error>] = []
        for seconds in [3, 1, 2] {
            sleepers.append(Task { try await clock.sleep(until: .start + .seconds(seconds), tolerance: nil) })
            await clock.waitForSleepers(sleepers.count)
        }
        clock.advance(to: .start + .milliseconds(1500))
        #expect(clock.deadlines == [.start + .seconds(2), .start + .seconds(3)])
        clock.advance(by: .seconds(10))
        for sleeper in sleepers { try await sleeper.value }
        // The order the clock resumed them in: when each task then runs is up to its executor.
        let inDeadlineOrder: [ManualClock.Instant] = [1, 2, 3].map { .start + .seconds($0) }
        #expect(clock.wokenDeadlines == inDeadlineOrder)
    }

    @Test("Task's sleep(until:clock:), and waiting for a sleeper with a given deadline, work with it (SE-0374)")
    func worksWithTaskSleepOnAClock() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await Task<Never, Never>.sleep(until: .start + .seconds(3), clock: clock) }
        await clock.waitForSleeper(until: .start + .seconds(3))
        clock.advance(by: .seconds(3))
        try await sleeper.value
    }
}

@Suite("Simulated world: the search server")
struct SearchServerTests {
    @Test("A request waits for the test's reply; a reply given first goes to the next request")
    func repliesInOrder() async throws {
        let server = SearchServer()
        let first = Task { try await server.search("a") }
        await server.waiting.reach(1)
        server.reply(.results(["x"]))
        #expect(try await first.value == ["x"])
        server.reply(.busy)
        await #expect(throws: SearchServerError.busy) { try await server.search("b") }
        server.reply(.badQuery)
        await #expect(throws: SearchServerError.badQuery) { try await server.search("c") }
        #expect(server.queries == ["a", "b", "c"] && server.answered.value == 3 && server.waiting.value == 0)
    }

    @Test("A request cancelled while it waits, or before it is made, throws CancellationError and is counted")
    func cancelledRequests() async {
        let server = SearchServer()
        let waiting = Task { try await server.search("a") }
        await server.waiting.reach(1)
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        let late = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await server.search("b")
        }
        await #expect(throws: CancellationError.self) { try await late.value }
        #expect(server.cancelled.value == 2 && server.requests.value == 2 && server.waiting.value == 0)
    }
}
