import SimulatedWorld

/// Fetches the thumbnail of every id and returns them by id, at most `maxInFlight` at a time.
public func fetchAllThumbnails(
    for ids: [String], from service: ThumbnailService, maxInFlight: Int
) async throws -> [String: Thumbnail] {
    var thumbnails: [String: Thumbnail] = [:]
    var start = ids.startIndex
    while start < ids.endIndex {
        let batch = ids[start..<min(start + maxInFlight, ids.endIndex)]
        try await withThrowingTaskGroup(of: (String, Thumbnail).self) { group in
            for id in batch {
                group.addTask { (id, try await service.fetchImage(id: id)) }
            }
            for try await (id, thumbnail) in group {
                thumbnails[id] = thumbnail
            }
        }
        start = batch.endIndex
    }
    return thumbnails
}
