import SimulatedWorld

public func fetchOneThumbnailEagerly(
    id: String, from service: ThumbnailService
) async throws -> (image: Thumbnail, metadata: ThumbnailMetadata) {
    let image = try await service.fetchImage(id: id)
    let metadata = try await service.fetchMetadata(id: id)
    return (image, metadata)
}
