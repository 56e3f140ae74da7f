import Dispatch
import SimulatedWorld
import Synchronization

/// The photo feed's thumbnail cache, in memory, in front of the thumbnail service.
///
/// A cell asks ``cachedThumbnail(for:)`` synchronously as it is configured, so that a
/// thumbnail already loaded appears at once, without a placeholder. Otherwise it awaits
/// ``thumbnail(for:)``, which fetches the thumbnail once and keeps it.
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
        if let cached = cachedThumbnail(for: id) { return cached }
        // The lock is held only to look up and to store, never during the fetch.
        let fetched = try fetchAndWait(id)
        thumbnails.withLock { $0[id] = fetched }
        return fetched
    }

    /// Fetches `id` and waits for the answer: `withLock` takes a synchronous closure.
    private func fetchAndWait(_ id: String) throws -> Thumbnail {
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<Thumbnail, any Error>?>(nil)
        Task { [service] in
            let result: Result<Thumbnail, any Error>
            do { result = .success(try await service.fetchImage(id: id)) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }
}
