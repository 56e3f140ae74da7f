import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch09CancellationSolution
#else
    import Ch09Cancellation
#endif

@Suite("Chapter 09: bridging a cancellable callback API")
struct RenderThumbnailTests {
    @Test("A render that is not cancelled returns the rendered thumbnail")
    func renderFinishes() async {
        let renderer = SlowRenderer()
        let call = Task { try await renderThumbnail(id: "r", with: renderer) }
        await awaitResult(of: { await renderer.started.reach(1) }, orRecord: Bugs.neverReturns)
        renderer.finishAll()
        let result = await awaitResult(of: { try await call.value }, orRecord: Bugs.neverReturns)
        #expect(result?.value == SlowRenderer.rendered("r"), Bugs.wrongThumbnails.comment)
        #expect(renderer.cancelsSeen.value == 0, Bugs.wrongThumbnails.comment)
    }

    @Test("Cancelling the caller cancels the render job", .exposesBug(Bugs.renderNotCancelled))
    func cancelReachesTheJob() async {
        let renderer = SlowRenderer()
        defer { renderer.finishAll() }
        let call = Task { try await renderThumbnail(id: "r", with: renderer) }
        await awaitResult(of: { await renderer.started.reach(1) }, orRecord: Bugs.neverReturns)
        call.cancel()
        let result = await awaitResult(of: { try await call.value }, orRecord: Bugs.renderNotCancelled)
        if let result {
            #expect(throws: CancellationError.self, Bugs.renderNotCancelled.comment) { try result.get() }
        }
        #expect(renderer.cancelsSeen.value == 1, Bugs.renderNotCancelled.comment)
    }

    @Test(
        "A task cancelled before it asks for a render ends with CancellationError",
        .exposesBug(Bugs.earlyCancelLost))
    func cancelBeforeTheJobStarts() async {
        let renderer = SlowRenderer()
        defer { renderer.finishAll() }
        let call = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await renderThumbnail(id: "r", with: renderer)
        }
        let result = await awaitResult(of: { try await call.value }, orRecord: Bugs.earlyCancelLost)
        if let result {
            #expect(throws: CancellationError.self, Bugs.earlyCancelLost.comment) { try result.get() }
        }
        // Either no job started, or the one that did was cancelled.
        #expect(renderer.started.value == renderer.cancelsSeen.value, Bugs.earlyCancelLost.comment)
    }
}
