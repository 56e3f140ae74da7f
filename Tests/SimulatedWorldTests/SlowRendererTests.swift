import SimulatedWorld
import Testing

/// Collects the results a renderer's completions receive.
private final class Deliveries: Sendable {
    private let results = Locked<[Result<Thumbnail, any Error>]>([])
    var all: [Result<Thumbnail, any Error>] { results.withLock { $0 } }
    func record(_ result: Result<Thumbnail, any Error>) { results.withLock { $0.append(result) } }
}

@Suite("Simulated world: the slow callback-based renderer")
struct SlowRendererTests {
    @Test("A job completes once, with its thumbnail, when the test finishes it")
    func finish() {
        let renderer = SlowRenderer()
        let deliveries = Deliveries()
        let job = renderer.render(id: "a", completion: deliveries.record)
        #expect(renderer.started.value == 1 && deliveries.all.isEmpty)
        renderer.finishAll()
        job.cancel()  // too late: ignored
        renderer.finishAll()
        #expect(deliveries.all.count == 1 && deliveries.all.first?.value == SlowRenderer.rendered("a"))
        #expect(renderer.cancelsSeen.value == 0 && renderer.completed.value == 1)
    }

    @Test("A cancelled job records the cancel and completes once with CancellationError")
    func cancel() {
        let renderer = SlowRenderer()
        let deliveries = Deliveries()
        let job = renderer.render(id: "b", completion: deliveries.record)
        job.cancel()
        job.cancel()
        renderer.finishAll()
        #expect(deliveries.all.count == 1)
        #expect(throws: CancellationError.self) { try deliveries.all.first?.get() }
        #expect(renderer.cancelsSeen.value == 1 && renderer.completed.value == 1)
    }
}
