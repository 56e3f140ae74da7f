import SimulatedWorld

/// Fetches the image and the metadata of `id`, both requests at once.
public func fetchOneThumbnailEagerly(
    id: String, from service: ThumbnailService
) async throws -> (image: Thumbnail, metadata: ThumbnailMetadata) {
    // `async let` starts the image as early as `Task {}` did, but as a child of this call:
    // a thrown error cancels it and waits for it, so nothing outlives the function.
    async let image = service.fetchImage(id: id)
    let metadata = try await service.fetchMetadata(id: id)
    return (try await image, metadata)
}
