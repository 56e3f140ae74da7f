import SimulatedWorld

/// Fetches the thumbnail of every id and returns them by id, with exactly `maxInFlight`
/// requests in flight while there are that many left: each time one finishes, the next id
/// starts. Ids are taken in their order.
///
/// Exercise: to be kind to the server, this asks for one thumbnail at a time. Run
/// `swift run workbook check 10` (or `swift test --filter Ch10TaskGroupsTests`) and read
/// Chapters/10-TaskGroups/README.md.
public func fetchAllThumbnails(
    for ids: [String], from service: ThumbnailService, maxInFlight: Int
) async throws -> [String: Thumbnail] {
    var thumbnails: [String: Thumbnail] = [:]
    for id in ids {
        thumbnails[id] = try await service.fetchImage(id: id)
    }
    return thumbnails
}
