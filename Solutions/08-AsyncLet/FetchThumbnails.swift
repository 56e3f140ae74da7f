import SimulatedWorld

/// Fetches the thumbnail of every id, one after the other, and returns them by id.
/// Throws the first error, and asks for nothing after it.
public func fetchThumbnails(
    for ids: [String], from service: ThumbnailService
) async throws -> [String: Thumbnail] {
    // The recursion of the completion-handler version becomes a loop. `try` passes the
    // first error to the caller and leaves the loop; the request runs in this task, so
    // cancelling the caller reaches it.
    var thumbnails: [String: Thumbnail] = [:]
    for id in ids {
        thumbnails[id] = try await service.fetchImage(id: id)
    }
    return thumbnails
}
