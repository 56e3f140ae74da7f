import SimulatedWorld

/// One of the two answers a thumbnail needs.
enum ThumbnailPart: Sendable {
    case image(Thumbnail)
    case metadata(ThumbnailMetadata)
}

/// Both requests as children of a task group; the first error leaves the body, and the group
/// cancels and awaits the other child before it rethrows.
func fetchBothParts(
    id: String, from service: ThumbnailService
) async throws -> (image: Thumbnail, metadata: ThumbnailMetadata) {
    try await withThrowingTaskGroup(of: ThumbnailPart.self) { group in
        group.addTask { .image(try await service.fetchImage(id: id)) }
        group.addTask { .metadata(try await service.fetchMetadata(id: id)) }
        var image: Thumbnail?
        var metadata: ThumbnailMetadata?
        for try await part in group {
            switch part {
            case .image(let value): image = value
            case .metadata(let value): metadata = value
            }
        }
        guard let image, let metadata else { throw CancellationError() }  // a child came back empty-handed
        return (image, metadata)
    }
}

public func fetchOneThumbnail(
    id: String, from service: ThumbnailService
) async throws -> (image: Thumbnail, metadata: ThumbnailMetadata) {
    try await fetchBothParts(id: id, from: service)
}
