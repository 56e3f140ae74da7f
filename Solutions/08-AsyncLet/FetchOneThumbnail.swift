import SimulatedWorld

/// Fetches the image and the metadata of `id`, both requests at once.
public func fetchOneThumbnail(
    id: String, from service: ThumbnailService
) async throws -> (image: Thumbnail, metadata: ThumbnailMetadata) {
    // Both requests start here, as child tasks of this call.
    async let image = service.fetchImage(id: id)
    async let metadata = service.fetchMetadata(id: id)
    // Await the metadata first: if it fails, we leave at once, and leaving the scope
    // cancels the image request and waits for it to end.
    let details = try await metadata
    return (try await image, details)
}
