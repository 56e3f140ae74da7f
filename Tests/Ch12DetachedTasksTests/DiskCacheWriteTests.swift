import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch12DetachedTasksSolution
#else
    import Ch12DetachedTasks
#endif

private let reading = ChapterReading("12-DetachedTasks")

/// What can go wrong in this chapter, in the learner's words.
enum Bugs {
    static let cacheWriteOnMainActor = reading.lesson(
        "the cache write runs on the main actor",
        "Task { } started on the main actor inherits it, so the blocking disk write freezes the screen while it runs",
        section: "Task { } inherits the main actor")
    static let cacheWriteNotAtBackground = reading.lesson(
        "the cache write does not run at background priority",
        "work nobody waits for should ask for .background: Task { } inherits the priority of the code that starts it, and Task.detached without a priority runs at the default, .medium",
        section: "Detached, at background priority")
    static let jobsOutliveCancel = reading.lesson(
        "cancelling the background task leaves its jobs running",
        "a Task.detached inside another task is not its child: cancelling the outer task does not reach it",
        section: "One task to cancel them all")
    static let jobsLosePriority = reading.lesson(
        "a background job does not run at background priority",
        "each job should inherit .background from the one detached task it belongs to; a detached task inherits no priority, and Task { } from the main actor inherits the screen's",
        section: "One task to cancel them all")
    static let jobOnMainActor = reading.lesson(
        "a background job runs on the main actor",
        "the jobs run on the actor of whoever calls them, so they must be called from a detached task, not from the main actor",
        section: "Task { } inherits the main actor")
    static let jobsOneAfterAnother = reading.lesson(
        "the background jobs do not run side by side",
        "the cache, log and index jobs should all be in flight at the same time",
        section: "One task to cancel them all")
    static let neverWrites = reading.lesson(
        "the thumbnail is never written to the disk cache",
        "thumbnailLoaded(_:) must start a task that calls cache.write",
        section: "Detached, at background priority")
    static let neverEnds = reading.lesson(
        "the background work never ends",
        "the task returned for the jobs was still running after every job had been let through or cancelled",
        section: "One task to cancel them all")
    static let failureLeavesJobsRunning = reading.lesson(
        "a failing job leaves the other jobs running",
        "the jobs stand or fall together: when one throws, the others must be cancelled at once. `waitForAll()` waits for every job and cancels none, and so does awaiting the jobs one by one; a discarding task group throws the first error and cancels the rest",
        section: "When one job fails")
    static let outcomeHidden = reading.lesson(
        "the background task hides how its jobs ended",
        "the task returned for the jobs must throw when they did not all finish: the failing job's error, or the cancellation. A group whose body never reads its children's results drops their errors, and `try?` or a catch-all swallows them",
        section: "When one job fails")
    static let loadLosesTrack = reading.lesson(
        "the gallery loses track of a loaded thumbnail",
        "each thumbnailLoaded(_:) shows its thumbnail at once, after the ones before it, and the task it returns writes that thumbnail to the cache, once: when every returned task has ended, the cache holds one write per call",
        section: "Your task")
    static let viewerCloseDropsSave = reading.lesson(
        "closing the viewer drops the cache write",
        "the user closed the viewer while its full-size photo was being saved, and the save was cancelled with the viewer's task; the copy is still useful next time, so the save must not belong to that task: a child task (async let, a task group) or an await in place shares its cancel, a Task.detached does not",
        section: "Detaching on purpose")
}

/// A gallery with its cache and its jobs, the jobs held after they start.
@MainActor
struct GalleryScene {
    let cache = DiskCache()
    let jobs = BackgroundJobs(holding: true)
    let gallery: Gallery

    init() {
        gallery = Gallery(cache: cache, jobs: jobs)
    }

    /// Waits until `count` cache writes have happened, or records `Bugs.neverWrites`.
    func writes(_ count: Int) async -> [DiskCache.Write]? {
        let writeCount = cache.writeCount
        guard await awaitResult(of: { await writeCount.reach(count) }, orRecord: Bugs.neverWrites) != nil
        else { return nil }
        return cache.writes
    }
}

@Suite("Chapter 12: the disk-cache write leaves the main actor")
@MainActor
struct DiskCacheWriteTests {
    @Test("A loaded thumbnail is shown and written to the cache")
    func shownAndCached() async {
        let scene = GalleryScene()
        scene.gallery.thumbnailLoaded(.expected(for: "beach"))
        #expect(scene.gallery.shown == [.expected(for: "beach")], Bugs.neverWrites.comment)
        let writes = await scene.writes(1)
        #expect(writes?.map(\.id) == ["beach"], Bugs.neverWrites.comment)
    }

    @Test("The cache write does not run on the main actor", .exposesBug(Bugs.cacheWriteOnMainActor))
    func writeLeavesTheMainActor() async {
        let scene = GalleryScene()
        scene.gallery.thumbnailLoaded(.expected(for: "forest"))
        guard let write = await scene.writes(1)?.first else { return }
        #expect(!write.onMainActor, Bugs.cacheWriteOnMainActor.comment)
    }

    @Test("The cache write runs at background priority", .exposesBug(Bugs.cacheWriteNotAtBackground))
    func writeRunsAtBackgroundPriority() async {
        let scene = GalleryScene()
        // The screen reacts to the user: its work runs at user-initiated priority.
        _ = await Task(priority: .userInitiated) { scene.gallery.thumbnailLoaded(.expected(for: "city")) }.value
        guard let write = await scene.writes(1)?.first else { return }
        if write.priority != .background {
            let why =
                write.priority == .userInitiated
                ? "the screen's priority, inherited from the code that started the write"
                : "not the screen's, but not .background either"
            Bugs.cacheWriteNotAtBackground.record(
                "The write ran at \(describe(write.priority)) (\(why)), not at .background.")
        }
    }
}

@Suite("Chapter 12: a cache write that outlives the viewer that asked for it")
@MainActor
struct FullSizeViewerTests {
    @Test(
        "Closing the viewer while the photo is being saved: the save still lands",
        .exposesBug(Bugs.viewerCloseDropsSave))
    func saveOutlivesTheViewer() async {
        let scene = GalleryScene()
        let cache = scene.cache
        let photo = Thumbnail.expected(for: "lighthouse")
        cache.holdSaves()
        // The viewer's task: the user is looking at the photo.
        let viewer = Task { await scene.gallery.fullSizeLoaded(photo) }
        guard await awaitResult(of: { await cache.savesStarted.reach(1) }, orRecord: Bugs.neverWrites) != nil
        else { return }
        // The save is waiting for the disk. The user closes the viewer: its task is cancelled.
        viewer.cancel()
        cache.releaseSaves()
        guard await awaitResult(of: { await cache.savesEnded.reach(1) }, orRecord: Bugs.neverWrites) != nil
        else { return }
        if !cache.droppedSaves.isEmpty {
            Bugs.viewerCloseDropsSave.record(
                "The save of \(cache.droppedSaves) saw the viewer's cancel and wrote nothing.")
        } else {
            #expect(cache.writes.map(\.id) == ["lighthouse"], Bugs.neverWrites.comment)
        }
        _ = await awaitResult(of: { await viewer.value }, orRecord: Bugs.neverEnds)
    }

    @Test("Left alone, the viewer's photo is saved to the cache")
    func saveLandsWithoutCancel() async {
        let scene = GalleryScene()
        await scene.gallery.fullSizeLoaded(.expected(for: "harbour"))
        let writes = await scene.writes(1)
        #expect(writes?.map(\.id) == ["harbour"], Bugs.neverWrites.comment)
    }
}
