import SimulatedWorld

public func fetchThumbnails(
    for ids: [String], from service: ThumbnailService
) async throws -> [String: Thumbnail] {
    var thumbnails: [String: Thumbnail] = [:]
    for id in ids {
        thumbnails[id] = try? await service.fetchImage(id: id)
    }
    return thumbnails
}
