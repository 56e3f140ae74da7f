import SimulatedWorld

/// Thrown when there is no mirror to ask.
public enum MirrorSearchError: Error, Hashable {
    case noMirrors
}

/// The same photo is kept on several mirror servers, under one id each. Asks every mirror
/// at once and returns the first thumbnail to arrive (or the first error); the slower
/// requests are cancelled and over before it returns.
///
/// Exercise: this returns the right thumbnail, but late. Run
/// `swift run workbook check 10` (or `swift test --filter Ch10TaskGroupsTests`) and read
/// Chapters/10-TaskGroups/README.md.
public func fetchFirstThumbnail(
    amongMirrors ids: [String], from service: ThumbnailService
) async throws -> Thumbnail {
    try await withThrowingTaskGroup(of: Thumbnail.self) { group in
        for id in ids {
            group.addTask { try await service.fetchImage(id: id) }
        }
        guard let first = try await group.next() else { throw MirrorSearchError.noMirrors }
        return first
    }
}
