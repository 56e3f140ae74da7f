import SimulatedWorld

/// Renders `id` with the callback-based `renderer`, the async way. Cancelling the caller
/// cancels the render job, which then ends the call with `CancellationError`.
public func renderThumbnail(id: String, with renderer: SlowRenderer) async throws -> Thumbnail {
    let job = RenderJobHandle()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            job.started(
                renderer.render(id: id) { result in
                    continuation.resume(with: result)
                })
        }
    } onCancel: {
        job.cancel()
    }
}

/// The render job, shared by the operation and the cancellation handler.
///
/// The handler can run at any moment, on any thread, even before the job exists (when the
/// task was cancelled before the call). Whichever of the two comes second cancels the job.
private final class RenderJobHandle: Sendable {
    private struct State {
        var job: SlowRenderer.Job?
        var isCancelled = false
    }
    private let state = Locked(State())

    func started(_ job: SlowRenderer.Job) {
        let cancelNow = state.withLock { state in
            state.job = job
            return state.isCancelled
        }
        if cancelNow { job.cancel() }
    }

    func cancel() {
        let job = state.withLock { state in
            state.isCancelled = true
            return state.job
        }
        job?.cancel()
    }
}
