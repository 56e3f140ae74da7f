import Dispatch
import SimulatedWorld
import Testing
import WorkbookTesting

@Suite("Simulated world: scheduled callbacks")
struct ScheduledCallbacksTests {
    @Test("A scheduled callback is in flight until it returns, and draining waits for it")
    func drainingWaitsForTheCallback() async {
        let gate = DispatchSemaphore(value: 0)
        let ran = ObservedCount()
        ScheduledCallbacks.schedule(on: DispatchQueue(label: "test.callbacks")) {
            gate.wait()
            ran.increment()
        }
        #expect(ScheduledCallbacks.inFlight.value >= 1)
        gate.signal()
        let outcome = await withinHangLimit { await ScheduledCallbacks.drained() }
        guard case .finished = outcome else {
            Issue.record("draining did not end after the callback returned")
            return
        }
        #expect(ran.value == 1)
    }
}
