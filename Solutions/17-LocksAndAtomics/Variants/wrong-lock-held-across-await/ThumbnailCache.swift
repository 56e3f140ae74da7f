import Foundation
import SimulatedWorld

/// The photo feed's thumbnail cache, in memory, in front of the thumbnail service.
///
/// A cell asks ``cachedThumbnail(for:)`` synchronously as it is configured, so that a
/// thumbnail already loaded appears at once, without a placeholder. Otherwise it awaits
/// ``thumbnail(for:)``, which fetches the thumbnail once and keeps it.
public final class ThumbnailCache: @unchecked Sendable {
    private let service: ThumbnailService
    // Guarded by `lock`.
    private let lock = NSLock()
    private var thumbnails: [String: Thumbnail] = [:]

    public init(service: ThumbnailService) {
        self.service = service
    }

    /// The thumbnail for `id` if the cache has it, without waiting for anything.
    public func cachedThumbnail(for id: String) -> Thumbnail? {
        lock.withLock { thumbnails[id] }
    }

    /// The thumbnail for `id`: the cached one, or else fetched from the service and kept.
    /// Throws the service's error if the fetch fails; a failure is not kept.
    public func thumbnail(for id: String) async throws -> Thumbnail {
        // Mutex.withLock won't take an await, so lock by hand: the whole lookup, fetch and
        // store is one critical section, and each thumbnail is fetched once.
        acquire()
        defer { release() }
        if let cached = thumbnails[id] { return cached }
        let fetched = try await service.fetchImage(id: id)
        thumbnails[id] = fetched
        return fetched
    }

    private func acquire() { lock.lock() }
    private func release() { lock.unlock() }
}
