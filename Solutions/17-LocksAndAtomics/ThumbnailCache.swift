import SimulatedWorld

/// The photo feed's thumbnail cache, in memory, in front of the thumbnail service.
///
/// A cell asks ``cachedThumbnail(for:)`` synchronously as it is configured, so that a
/// thumbnail already loaded appears at once, without a placeholder. Otherwise it awaits
/// ``thumbnail(for:)``, which fetches the thumbnail once and keeps it.
///
/// Solution: the lock guards the dictionary only, for a lookup or a store, and is never held
/// while anything waits. The fetch is awaited outside it: the task suspends and gives its
/// thread back to the pool, so the fetch (and everyone else) can run.
/// (`Locked` is the workbook's `Mutex` look-alike, with the same `withLock`; see
/// "Locked, and the race check" in the README for why the solutions use it. With
/// `Mutex<[String: Thumbnail]>` the code is the same.)
public final class ThumbnailCache: Sendable {
    private let service: ThumbnailService
    private let thumbnails = Locked<[String: Thumbnail]>([:])

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
        if let cached = cachedThumbnail(for: id) { return cached }
        // Await, don't wait: no lock is held and no thread is blocked while the fetch runs.
        let fetched = try await service.fetchImage(id: id)
        // Two callers that missed at the same moment both fetch; the second store writes the
        // same thumbnail again, which is harmless. (Variants/right-shared-fetches shares one fetch.)
        thumbnails.withLock { $0[id] = fetched }
        return fetched
    }
}
