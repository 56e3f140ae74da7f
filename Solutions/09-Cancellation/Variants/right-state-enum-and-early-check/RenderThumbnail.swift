import SimulatedWorld

/// Renders `id` with the callback-based `renderer`, the async way. Cancelling the caller
/// cancels the render job, which then ends the call with `CancellationError`.
public func renderThumbnail(id: String, with renderer: SlowRenderer) async throws -> Thumbnail {
    try Task.checkCancellation()
    let render = RenderState()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            render.started(
                renderer.render(id: id) { result in
                    continuation.resume(with: result)
                })
        }
    } onCancel: {
        render.cancel()
    }
}

private final class RenderState: Sendable {
    private enum Phase: Sendable {
        case notStarted
        case running(SlowRenderer.Job)
        case cancelled
    }

    private let phase = Locked(Phase.notStarted)

    func started(_ job: SlowRenderer.Job) {
        let cancelledFirst = phase.withLock { phase -> Bool in
            if case .cancelled = phase { return true }
            phase = .running(job)
            return false
        }
        if cancelledFirst { job.cancel() }
    }

    func cancel() {
        let job = phase.withLock { phase -> SlowRenderer.Job? in
            defer { phase = .cancelled }
            if case .running(let job) = phase { return job }
            return nil
        }
        job?.cancel()
    }
}
