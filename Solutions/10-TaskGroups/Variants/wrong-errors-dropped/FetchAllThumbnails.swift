import SimulatedWorld

/// Fetches the thumbnail of every id, all requests at once, and returns them by id.
public func fetchAllThumbnails(
    for ids: [String], from service: ThumbnailService
) async throws -> [String: Thumbnail] {
    try Task.checkCancellation()
    let collected = Collected()
    // The group waits for its children before it returns, so nothing more is needed.
    await withThrowingTaskGroup(of: Void.self) { group in
        for id in ids {
            group.addTask { await collected.set(id, try await service.fetchImage(id: id)) }
        }
    }
    return await collected.thumbnails
}

/// The results, safe to share: an actor.
private actor Collected {
    var thumbnails: [String: Thumbnail] = [:]
    func set(_ id: String, _ thumbnail: Thumbnail) { thumbnails[id] = thumbnail }
}
