import SimulatedWorld

/// Renders `id` with the callback-based `renderer`, the async way.
public func renderThumbnail(id: String, with renderer: SlowRenderer) async throws -> Thumbnail {
    let handle = RenderJobHandle()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            handle.started(
                renderer.render(id: id) { result in
                    continuation.resume(with: result)
                })
        }
    } onCancel: {
        handle.cancel()
    }
}

/// "@unchecked Sendable" silences the compiler; nothing here makes it true.
private final class RenderJobHandle: @unchecked Sendable {
    private var job: SlowRenderer.Job?
    private var isCancelled = false

    func started(_ job: SlowRenderer.Job) {
        self.job = job
        if isCancelled { job.cancel() }
    }

    func cancel() {
        isCancelled = true
        job?.cancel()
    }
}
