import SimulatedWorld

/// The gallery screen's model: it shows each thumbnail that has loaded and keeps a copy of
/// it in the disk cache.
///
/// Exercise: the screen shows every thumbnail, and the cache gets every write. Run
/// `swift run workbook check 12` (or `swift test --filter Ch12DetachedTasksTests`) to see where
/// the write runs, and at which
/// priority. Read Chapters/12-DetachedTasks/README.md first.
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
        return Task {
            cache.write(thumbnail)
        }
    }
}
