import SimulatedWorld

/// Thrown when there is no mirror to ask.
public enum MirrorSearchError: Error, Hashable {
    case noMirrors
}

/// Asks every mirror at once and returns the first thumbnail to arrive (or the first
/// error); the slower requests are cancelled and over before it returns.
public func fetchFirstThumbnail(
    amongMirrors ids: [String], from service: ThumbnailService
) async throws -> Thumbnail {
    try await withThrowingTaskGroup(of: Thumbnail.self) { group in
        defer { group.cancelAll() }
        for id in ids {
            group.addTask { try await service.fetchImage(id: id) }
        }
        for try await thumbnail in group {
            return thumbnail
        }
        throw MirrorSearchError.noMirrors
    }
}
