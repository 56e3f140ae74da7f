import SimulatedWorld
import Testing

@Suite("Simulated world: the traced backend (chapter 23)")
struct TracedBackendTests {
    @Test("Each call records the caller's trace id and priority, at its start and at its end")
    func recordsTraceAndPriority() async throws {
        let backend = TracedBackend()
        // In this task: a task awaited from a more urgent one would be escalated before it ran.
        let answer = try await RequestTrace.$id.withValue("t-1") { try await backend.call("charge o-1") }
        #expect(answer == "charge o-1: ok")
        let expected = TracedCall(endpoint: "charge o-1", traceID: "t-1", priority: Task.currentPriority)
        #expect(backend.calls == [expected] && backend.endedCalls == [expected])
        #expect(try await backend.call("outside") == "outside: ok")
        #expect(backend.calls.last?.traceID == nil && backend.ended.value == 2)
    }

    @Test("A held call waits for its endpoint; a failed one throws BackendFailure; a cancelled one CancellationError")
    func heldFailedAndCancelled() async throws {
        let backend = TracedBackend(holding: true)
        let charge = Task { try await backend.call("charge") }
        let receipt = Task { try await backend.call("receipt") }
        let page = Task { try await backend.call("page") }
        await backend.started.reach(3)
        backend.letThrough("charge")
        #expect(try await charge.value == "charge: ok")
        backend.letThrough("receipt", failing: true)
        await #expect(throws: BackendFailure(endpoint: "receipt")) { try await receipt.value }
        page.cancel()
        await #expect(throws: CancellationError.self) { try await page.value }
        #expect(backend.escalations.isEmpty)
    }

    @Test("A higher-priority task awaiting a held call's task is seen as an escalation, and raises its priority")
    func seesEscalation() async throws {
        let backend = TracedBackend(holding: true)
        let prefetch = Task(priority: .background) { try await backend.call("page 2") }
        await backend.started.reach(1)
        let waiter = Task(priority: .userInitiated) { try await prefetch.value }
        await backend.escalated.reach(1)
        #expect(backend.escalations == [TracedEscalation(endpoint: "page 2", from: .background, to: .userInitiated)])
        backend.releaseAll()
        #expect(try await waiter.value == "page 2: ok")
        #expect(backend.calls.first?.priority == .background && backend.endedCalls.first?.priority == .userInitiated)
    }

    @Test("failCalls fails exactly the planned call")
    func failurePlan() async throws {
        let backend = TracedBackend()
        backend.failCalls(per: FailurePlan(failingCall: 2))
        #expect(try await backend.call("a") == "a: ok")
        await #expect(throws: BackendFailure(endpoint: "b")) { try await backend.call("b") }
        #expect(try await backend.call("b") == "b: ok")
    }
}
