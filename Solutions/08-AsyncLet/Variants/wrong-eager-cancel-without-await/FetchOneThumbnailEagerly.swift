import SimulatedWorld

public func fetchOneThumbnailEagerly(
    id: String, from service: ThumbnailService
) async throws -> (image: Thumbnail, metadata: ThumbnailMetadata) {
    let imageRequest = Task { try await service.fetchImage(id: id) }
    do {
        let metadata = try await service.fetchMetadata(id: id)
        return (try await imageRequest.value, metadata)
    } catch {
        imageRequest.cancel()
        throw error
    }
}
