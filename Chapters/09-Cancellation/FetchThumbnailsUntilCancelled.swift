import SimulatedWorld

/// Fetches and resizes the thumbnail of every id, in order, until its task is cancelled;
/// then it should return the thumbnails it has finished instead of throwing.
///
/// Exercise: for now this just calls `fetchThumbnails(for:from:)`, which throws (or, before
/// you fix it, ignores the cancel). Write it in the second style of
/// Chapters/09-Cancellation/README.md.
public func fetchThumbnailsUntilCancelled(
    for ids: [String], from service: ThumbnailService
) async throws -> [Thumbnail] {
    try await fetchThumbnails(for: ids, from: service)
}
