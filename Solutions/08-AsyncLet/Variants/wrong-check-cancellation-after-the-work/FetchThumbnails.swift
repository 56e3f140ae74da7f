import SimulatedWorld

public func fetchThumbnails(
    for ids: [String], from service: ThumbnailService
) async throws -> [String: Thumbnail] {
    let thumbnails = try await withCheckedThrowingContinuation { continuation in
        fetchThumbnails(for: ids, from: service) { result in
            continuation.resume(with: result)
        }
    }
    try Task.checkCancellation()
    return thumbnails
}
