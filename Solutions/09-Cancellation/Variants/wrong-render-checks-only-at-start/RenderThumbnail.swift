import SimulatedWorld

/// Renders `id` with the callback-based `renderer`, the async way.
public func renderThumbnail(id: String, with renderer: SlowRenderer) async throws -> Thumbnail {
    try Task.checkCancellation()
    return try await withCheckedThrowingContinuation { continuation in
        renderer.render(id: id) { result in
            continuation.resume(with: result)
        }
    }
}
