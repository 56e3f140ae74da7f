import SimulatedWorld

/// The gallery screen's model: it shows each thumbnail that has loaded and keeps a copy of
/// it in the disk cache.
///
/// Solution: the cache write runs in a detached task at background priority. It inherits
/// nothing from the main actor: not its isolation, not the screen's priority.
@MainActor
public final class Gallery {
    /// The thumbnails on screen, in the order they loaded.
    public private(set) var shown: [Thumbnail] = []
    let cache: DiskCache
    let jobs: BackgroundJobs

    public init(cache: DiskCache, jobs: BackgroundJobs) {
        self.cache = cache
        self.jobs = jobs
    }

    /// Shows `thumbnail`, then writes it to the disk cache in the background, without
    /// making the screen wait. Returns the task that writes.
    @discardableResult
    public func thumbnailLoaded(_ thumbnail: Thumbnail) -> Task<Void, Never> {
        shown.append(thumbnail)
        return Task.detached(priority: .background) { [cache] in
            cache.write(thumbnail)
        }
    }
}
