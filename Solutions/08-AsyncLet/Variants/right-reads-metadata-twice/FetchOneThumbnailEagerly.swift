import SimulatedWorld

public func fetchOneThumbnailEagerly(
    id: String, from service: ThumbnailService
) async throws -> (image: Thumbnail, metadata: ThumbnailMetadata) {
    async let metadata = service.fetchMetadata(id: id)
    async let image = service.fetchImage(id: id)
    let (details, picture) = try await (metadata, image)  // metadata first, then the image
    return (picture, details)
}
