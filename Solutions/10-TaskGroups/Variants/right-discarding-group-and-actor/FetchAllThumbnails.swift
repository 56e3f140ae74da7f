import SimulatedWorld

/// Fetches the thumbnail of every id, all requests at once, and returns them by id.
public func fetchAllThumbnails(
    for ids: [String], from service: ThumbnailService
) async throws -> [String: Thumbnail] {
    try Task.checkCancellation()
    let collected = Collected()
    // A discarding group keeps no results; the first child error cancels the others and
    // is rethrown once they are over.
    try await withThrowingDiscardingTaskGroup { group in
        for id in ids {
            group.addTask { await collected.set(id, try await service.fetchImage(id: id)) }
        }
    }
    return await collected.thumbnails
}

/// The results, shared safely: an actor.
private actor Collected {
    var thumbnails: [String: Thumbnail] = [:]
    func set(_ id: String, _ thumbnail: Thumbnail) { thumbnails[id] = thumbnail }
}
