import SimulatedWorld

/// Fetches the thumbnail of every id and returns them by id, with exactly `maxInFlight`
/// requests in flight while there are that many left. Ids are taken in their order.
public func fetchAllThumbnails(
    for ids: [String], from service: ThumbnailService, maxInFlight: Int
) async throws -> [String: Thumbnail] {
    try await withThrowingTaskGroup(of: (String, Thumbnail).self) { group in
        var thumbnails: [String: Thumbnail] = [:]
        for (index, id) in ids.enumerated() {
            if index >= maxInFlight, let (done, thumbnail) = try await group.next() {
                thumbnails[done] = thumbnail
            }
            group.addTask { (id, try await service.fetchImage(id: id)) }
        }
        for try await (id, thumbnail) in group {
            thumbnails[id] = thumbnail
        }
        return thumbnails
    }
}
