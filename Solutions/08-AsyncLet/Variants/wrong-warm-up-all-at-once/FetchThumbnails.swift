import SimulatedWorld

public func fetchThumbnails(
    for ids: [String], from service: ThumbnailService
) async throws -> [String: Thumbnail] {
    try await withThrowingTaskGroup(of: (String, Thumbnail).self) { group in
        for id in ids {
            group.addTask { (id, try await service.fetchImage(id: id)) }
        }
        var thumbnails: [String: Thumbnail] = [:]
        for try await (id, thumbnail) in group {
            thumbnails[id] = thumbnail
        }
        return thumbnails
    }
}
