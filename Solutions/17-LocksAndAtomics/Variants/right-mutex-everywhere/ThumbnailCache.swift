import SimulatedWorld
import Synchronization

/// The photo feed's thumbnail cache, in memory, in front of the thumbnail service.
///
/// A cell asks ``cachedThumbnail(for:)`` synchronously as it is configured, so that a
/// thumbnail already loaded appears at once, without a placeholder. Otherwise it awaits
/// ``thumbnail(for:)``, which fetches the thumbnail once and keeps it.
///
/// Right fix: `Mutex` from Synchronization, held only to look up or store.
public final class ThumbnailCache: Sendable {
    private let service: ThumbnailService
    private let thumbnails = Mutex<[String: Thumbnail]>([:])

    public init(service: ThumbnailService) {
        self.service = service
    }

    /// The thumbnail for `id` if the cache has it, without waiting for anything.
    public func cachedThumbnail(for id: String) -> Thumbnail? {
        thumbnails.withLock { $0[id] }
    }

    /// The thumbnail for `id`: the cached one, or else fetched from the service and kept.
    /// Throws the service's error if the fetch fails; a failure is not kept.
    public func thumbnail(for id: String) async throws -> Thumbnail {
        if let cached = thumbnails.withLock({ $0[id] }) { return cached }
        let fetched = try await service.fetchImage(id: id)
        return thumbnails.withLock { thumbnails in
            // Another caller may have stored it meanwhile: keep the first.
            if let stored = thumbnails[id] { return stored }
            thumbnails[id] = fetched
            return fetched
        }
    }
}
