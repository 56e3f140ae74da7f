import SimulatedWorld

public func fetchOneThumbnailEagerly(
    id: String, from service: ThumbnailService
) async throws -> (image: Thumbnail, metadata: ThumbnailMetadata) {
    let imageRequest = Task.detached { try await service.fetchImage(id: id) }
    let metadata = try await service.fetchMetadata(id: id)
    return (try await imageRequest.value, metadata)
}
