import SimulatedWorld

/// Renders `id` with the callback-based `renderer`, the async way.
public func renderThumbnail(id: String, with renderer: SlowRenderer) async throws -> Thumbnail {
    let job = Locked<SlowRenderer.Job?>(nil)
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            let started = renderer.render(id: id) { result in
                continuation.resume(with: result)
            }
            job.withLock { $0 = started }
        }
    } onCancel: {
        job.withLock { $0 }?.cancel()
    }
}
