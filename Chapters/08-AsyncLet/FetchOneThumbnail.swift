import SimulatedWorld

/// Fetches the image and the metadata of `id`.
///
/// Exercise: this returns the right values, but the two requests don't overlap. Run
/// `swift run workbook check 08` (or `swift test --filter Ch08AsyncLetTests`) and read
/// Chapters/08-AsyncLet/README.md.
public func fetchOneThumbnail(
    id: String, from service: ThumbnailService
) async throws -> (image: Thumbnail, metadata: ThumbnailMetadata) {
    let image = try await service.fetchImage(id: id)
    let metadata = try await service.fetchMetadata(id: id)
    return (image, metadata)
}
