import SimulatedWorld

public func fetchOneThumbnail(
    id: String, from service: ThumbnailService
) async throws -> (image: Thumbnail, metadata: ThumbnailMetadata) {
    async let image = service.fetchImage(id: id)
    async let metadata = service.fetchMetadata(id: id)
    return (try await image, try await metadata)
}
