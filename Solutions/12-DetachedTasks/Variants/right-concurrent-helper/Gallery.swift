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
        shown.append(thumbnail)
        return Task(priority: .background) { [cache] in
            await Self.write(thumbnail, to: cache)
        }
    }

    @concurrent
    private nonisolated static func write(_ thumbnail: Thumbnail, to cache: DiskCache) async {
        cache.write(thumbnail)
    }
}
