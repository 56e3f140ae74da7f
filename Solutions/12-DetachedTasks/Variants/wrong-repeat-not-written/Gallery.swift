import SimulatedWorld

@MainActor
public final class Gallery {
    public private(set) var shown: [Thumbnail] = []
    let cache: DiskCache
    let jobs: BackgroundJobs

    public init(cache: DiskCache, jobs: BackgroundJobs) {
        self.cache = cache
        self.jobs = jobs
    }

    @discardableResult
    public func thumbnailLoaded(_ thumbnail: Thumbnail) -> Task<Void, Never> {
        // Loaded before: it is in the cache already, so don't write it again.
        let cachedBefore = shown.contains(thumbnail)
        shown.append(thumbnail)
        return Task.detached(priority: .background) { [cache] in
            if !cachedBefore { cache.write(thumbnail) }
        }
    }
}
