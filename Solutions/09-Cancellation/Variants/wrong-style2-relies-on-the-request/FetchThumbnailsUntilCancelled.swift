import Foundation
import SimulatedWorld

/// Fetches and resizes the thumbnail of every id, in order, until its task is cancelled.
public func fetchThumbnailsUntilCancelled(
    for ids: [String], from service: ThumbnailService
) async throws -> [Thumbnail] {
    var finished: [Thumbnail] = []
    for id in ids {
        do {
            // The request checks for a cancel itself, so no need to check here.
            let image = try await service.fetchImage(id: id)
            finished.append(try resizeThumbnail(image, with: service))
        } catch let error where error is CancellationError || (error as? URLError)?.code == .cancelled {
            break
        }
    }
    return finished
}
