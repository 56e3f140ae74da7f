import SimulatedWorld

/// The photo feed's thumbnail cache, in memory, in front of the thumbnail service.
///
/// A cell asks ``cachedThumbnail(for:)`` synchronously as it is configured, so that a
/// thumbnail already loaded appears at once, without a placeholder. Otherwise it awaits
/// ``thumbnail(for:)``, which fetches the thumbnail once and keeps it.
///
/// Right fix: the dictionary keeps each fetch in flight as a `Task`, so callers that miss
/// at the same time await one fetch. The lock is held only to look up, to add the task, and
/// to record the outcome; the task's value is awaited outside it.
public final class ThumbnailCache: Sendable {
    private enum Entry {
        case loading(Task<Thumbnail, any Error>)
        case ready(Thumbnail)
    }

    private let service: ThumbnailService
    private let entries = Locked<[String: Entry]>([:])

    public init(service: ThumbnailService) {
        self.service = service
    }

    /// The thumbnail for `id` if the cache has it, without waiting for anything.
    public func cachedThumbnail(for id: String) -> Thumbnail? {
        entries.withLock { entries in
            if case .ready(let thumbnail) = entries[id] { return thumbnail }
            return nil
        }
    }

    /// The thumbnail for `id`: the cached one, or else fetched from the service and kept.
    /// Throws the service's error if the fetch fails; a failure is not kept.
    public func thumbnail(for id: String) async throws -> Thumbnail {
        let lookup: Entry = entries.withLock { entries in
            if let entry = entries[id] { return entry }
            let task = Task { [service] in try await service.fetchImage(id: id) }
            entries[id] = .loading(task)
            return .loading(task)
        }
        switch lookup {
        case .ready(let thumbnail):
            return thumbnail
        case .loading(let task):
            return try await outcome(of: task, for: id)
        }
    }

    /// Awaits the fetch of `id`, outside the lock, and records how it ended.
    private func outcome(of task: Task<Thumbnail, any Error>, for id: String) async throws -> Thumbnail {
        do {
            let thumbnail = try await task.value
            entries.withLock { $0[id] = .ready(thumbnail) }
            return thumbnail
        } catch {
            entries.withLock { entries in
                if case .loading = entries[id] { entries[id] = nil }
            }
            throw error
        }
    }
}
