import SimulatedWorld

/// Fetches the thumbnail of every id and returns them by id, with exactly `maxInFlight`
/// requests in flight while there are that many left: each time one finishes, the next id
/// starts. Ids are taken in their order.
public func fetchAllThumbnails(
    for ids: [String], from service: ThumbnailService, maxInFlight: Int
) async throws -> [String: Thumbnail] {
    precondition(maxInFlight > 0, "a window needs room for at least one request")
    let fetch: @Sendable (String) async throws -> (String, Thumbnail) = { id in
        (id, try await service.fetchImage(id: id))
    }
    return try await withThrowingTaskGroup(of: (String, Thumbnail).self) { group in
        // Fill the window...
        for id in ids.prefix(maxInFlight) {
            group.addTask { try await fetch(id) }
        }
        // ...then slide it: one in as soon as one is out.
        var waiting = ids.dropFirst(maxInFlight)
        var thumbnails: [String: Thumbnail] = [:]
        while let (id, thumbnail) = try await group.next() {
            thumbnails[id] = thumbnail
            if let next = waiting.popFirst() {
                group.addTask { try await fetch(next) }
            }
        }
        return thumbnails
    }
}
