import SimulatedWorld

/// Fetches the image and the metadata of `id`, both requests at once.
///
/// Exercise: a colleague made the requests overlap by starting the image in a `Task`.
/// They do overlap now. Run `swift run workbook check 08` (or
/// `swift test --filter Ch08AsyncLetTests`) to see what happens
/// when the metadata fails, and read Chapters/08-AsyncLet/README.md.
public func fetchOneThumbnailEagerly(
    id: String, from service: ThumbnailService
) async throws -> (image: Thumbnail, metadata: ThumbnailMetadata) {
    let imageRequest = Task { try await service.fetchImage(id: id) }
    let metadata = try await service.fetchMetadata(id: id)
    let image = try await imageRequest.value
    return (image, metadata)
}
