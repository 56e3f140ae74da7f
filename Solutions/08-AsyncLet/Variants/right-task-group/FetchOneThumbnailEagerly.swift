import SimulatedWorld

public func fetchOneThumbnailEagerly(
    id: String, from service: ThumbnailService
) async throws -> (image: Thumbnail, metadata: ThumbnailMetadata) {
    try await fetchBothParts(id: id, from: service)
}
