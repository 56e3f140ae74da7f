import Foundation
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

/// The lock guards the write of the job, and nothing else.
private final class RenderJobHandle: @unchecked Sendable {
    private let lock = NSLock()
    private var job: SlowRenderer.Job?
    private var isCancelled = false

    func started(_ job: SlowRenderer.Job) {
        lock.lock()
        self.job = job
        lock.unlock()
        if isCancelled { job.cancel() }
    }

    func cancel() {
        isCancelled = true
        job?.cancel()
    }
}
