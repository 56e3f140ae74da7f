import SimulatedWorld

/// Renders `id` with the callback-based `renderer`, the async way.
///
/// Exercise: the continuation is right, but a cancelled caller is never heard: the render
/// job goes on, and the caller waits for it. Read "Bridging a callback with
/// withTaskCancellationHandler" in Chapters/09-Cancellation/README.md.
public func renderThumbnail(id: String, with renderer: SlowRenderer) async throws -> Thumbnail {
    try await withCheckedThrowingContinuation { continuation in
        renderer.render(id: id) { result in
            continuation.resume(with: result)
        }
    }
}
