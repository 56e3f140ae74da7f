import SimulatedWorld

/// Fetches the thumbnail of every id, all requests at once, and returns them by id.
///
/// All or nothing: if a request fails, it throws that error, and the other requests are
/// cancelled and over before it does. Cancelling the caller cancels every request.
public func fetchAllThumbnails(
    for ids: [String], from service: ThumbnailService
) async throws -> [String: Thumbnail] {
    try await withThrowingTaskGroup(of: (String, Thumbnail).self) { group in
        for id in ids {
            group.addTask { (id, try await service.fetchImage(id: id)) }
        }
        // A failed child's error is rethrown here. It leaves the group's body, and the
        // group cancels the other children and waits for them before it throws.
        var thumbnails: [String: Thumbnail] = [:]
        for try await (id, thumbnail) in group {
            thumbnails[id] = thumbnail
        }
        return thumbnails
    }
}
