import SimulatedWorld

public func fetchOneThumbnail(
    id: String, from service: ThumbnailService
) async throws -> (image: Thumbnail, metadata: ThumbnailMetadata) {
    async let image = service.fetchImage(id: id)
    async let metadata = service.fetchMetadata(id: id)
    _ = try await metadata  // fail fast: a missing metadata means nothing to show
    // `metadata` was used up above, so ask for it again.
    return (try await image, try await service.fetchMetadata(id: id))
}
