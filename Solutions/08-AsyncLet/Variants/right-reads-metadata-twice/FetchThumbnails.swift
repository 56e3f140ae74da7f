import SimulatedWorld

public func fetchThumbnails(
    for ids: [String], from service: ThumbnailService
) async throws -> [String: Thumbnail] {
    var remaining = ids[...]
    var thumbnails: [String: Thumbnail] = [:]
    while let id = remaining.popFirst() {
        let thumbnail = try await service.fetchImage(id: id)
        thumbnails[id] = thumbnail
    }
    return thumbnails
}
