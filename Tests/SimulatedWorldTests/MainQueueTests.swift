import Dispatch
import SimulatedWorld
import Testing
import WorkbookTesting

@Suite("MainQueue tells the main queue apart")
struct MainQueueTests {
    @Test("A block on the main queue sees it; a block on another queue does not")
    func mainQueueBlocks() async {
        let onMain = await withCheckedContinuation { continuation in
            DispatchQueue.main.async { continuation.resume(returning: MainQueue.isCurrent) }
        }
        let onOther = await withCheckedContinuation { continuation in
            DispatchQueue(label: "MainQueueTests.other").async { continuation.resume(returning: MainQueue.isCurrent) }
        }
        #expect(onMain)
        #expect(!onOther)
    }

    @Test("Main-actor code runs on the main queue; a nonisolated test does not")
    func mainActorIsTheMainQueue() async {
        let onMainActor = await MainActor.run { MainQueue.isCurrent }
        #expect(onMainActor)
        #expect(!MainQueue.isCurrent)
    }

    @Test("drain() waits for blocks enqueued on the main queue before it")
    func drainWaitsForEarlierBlocks() async {
        let ran = ObservedCount()
        DispatchQueue.main.async { ran.increment() }
        await MainQueue.drain()
        #expect(ran.value == 1)
    }
}
