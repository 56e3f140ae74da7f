import SimulatedWorld

/// Fetches the thumbnail of every id, all requests at once, and returns them by id.
///
/// All or nothing: if a request fails, it throws that error, and the other requests are
/// cancelled and over before it does. Cancelling the caller cancels every request; a caller
/// that is already cancelled starts none.
public func fetchAllThumbnails(
    for ids: [String], from service: ThumbnailService
) async throws -> [String: Thumbnail] {
    // A group does not check for a cancel before it starts a child: in a task that is
    // already cancelled, addTask still starts it. Check first, and start nothing.
    try Task.checkCancellation()
    return try await withThrowingTaskGroup(of: (String, Thumbnail).self) { group in
        for id in ids {
            group.addTask { (id, try await service.fetchImage(id: id)) }
        }
        // A failed child's error is rethrown here. It leaves the group's body, and the
        // group cancels the other children and waits for them before it throws. (A body
        // that returned without asking would drop the error: it must be consumed.)
        var thumbnails: [String: Thumbnail] = [:]
        for try await (id, thumbnail) in group {
            thumbnails[id] = thumbnail
        }
        return thumbnails
    }
}
