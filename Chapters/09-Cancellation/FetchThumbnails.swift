import SimulatedWorld

/// Fetches and resizes the thumbnail of every id, in the order of the ids.
///
/// When its task is cancelled, it should stop: throw a cancellation error
/// (`CancellationError`, or the `URLError(.cancelled)` of a request the cancel cut off) and
/// start no further request or resize step, not even the first.
///
/// Exercise: this ignores cancellation. Run `swift run workbook check 09` (or
/// `swift test --filter Ch09CancellationTests`)
/// and read Chapters/09-Cancellation/README.md.
public func fetchThumbnails(for ids: [String], from service: ThumbnailService) async throws -> [Thumbnail] {
    var thumbnails: [Thumbnail] = []
    for id in ids {
        let image = try await service.fetchImage(id: id)
        thumbnails.append(try resizeThumbnail(image, with: service))
    }
    return thumbnails
}
