import SimulatedWorld

/// Thrown when there is no mirror to ask.
public enum MirrorSearchError: Error, Hashable {
    case noMirrors
}

/// Asks every mirror at once and returns the first thumbnail to arrive.
public func fetchFirstThumbnail(
    amongMirrors ids: [String], from service: ThumbnailService
) async throws -> Thumbnail {
    try await withThrowingTaskGroup(of: Thumbnail.self) { group in
        for id in ids {
            // Off the caller's executor, so the requests don't wait for each other.
            group.addTask { try await Task.detached { try await service.fetchImage(id: id) }.value }
        }
        guard let first = try await group.next() else { throw MirrorSearchError.noMirrors }
        group.cancelAll()
        return first
    }
}
