import SimulatedWorld

/// Fetches the thumbnail of every id, all requests at once, and returns them by id.
///
/// All or nothing: if a request fails, it throws that error, and the other requests are
/// cancelled and over before it does. Cancelling the caller cancels every request; a caller
/// that is already cancelled starts none.
///
/// Exercise: this starts one `Task` per id. Run `swift run workbook check 10` (or
/// `swift test --filter Ch10TaskGroupsTests`)
/// to see what happens when one of them fails, and read Chapters/10-TaskGroups/README.md.
public func fetchAllThumbnails(
    for ids: [String], from service: ThumbnailService
) async throws -> [String: Thumbnail] {
    let requests = ids.map { id in (id, Task { try await service.fetchImage(id: id) }) }
    var thumbnails: [String: Thumbnail] = [:]
    for (id, request) in requests {
        thumbnails[id] = try await request.value
    }
    return thumbnails
}
