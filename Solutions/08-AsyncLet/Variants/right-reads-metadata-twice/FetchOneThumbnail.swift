import SimulatedWorld

public func fetchOneThumbnail(
    id: String, from service: ThumbnailService
) async throws -> (image: Thumbnail, metadata: ThumbnailMetadata) {
    async let image = service.fetchImage(id: id)
    async let metadata = service.fetchMetadata(id: id)
    _ = try await metadata  // fail fast; the request runs once, whatever reads it later
    return (try await image, try await metadata)
}
