import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch12DetachedTasksSolution
#else
    import Ch12DetachedTasks
#endif

extension GalleryScene {
    /// Starts the jobs for one thumbnail from the main actor, at user-initiated priority
    /// (the screen's), and waits until all three are in flight, held after starting.
    /// Returns nil, with a lesson recorded, if they never are.
    func startJobs() async -> Task<Void, any Error>? {
        let work = await Task(priority: .userInitiated) {
            gallery.startBackgroundJobs(for: .expected(for: "harbour"))
        }.value
        let inFlight = jobs.inFlight
        guard await awaitResult(of: { await inFlight.reach(3) }, orRecord: Bugs.jobsOneAfterAnother) != nil else {
            jobs.releaseAll()
            return nil
        }
        return work
    }

    /// Lets the jobs finish and waits for the task that stands for them.
    func finish(_ work: Task<Void, any Error>) async {
        jobs.releaseAll()
        await awaitResult(of: { try await work.value }, orRecord: Bugs.neverEnds)
    }
}

@Suite("Chapter 12: background jobs in one detached task")
@MainActor
struct BackgroundJobsTests {
    @Test("Cancelling the one background task cancels every job", .exposesBug(Bugs.jobsOutliveCancel))
    func cancelReachesEveryJob() async {
        let scene = GalleryScene()
        guard let work = await scene.startJobs() else { return }
        work.cancel()
        let cancelled = scene.jobs.cancelled
        if case .stillSuspended = await withinHangLimit(hangLimit, { await cancelled.reach(3) }) {
            Bugs.jobsOutliveCancel.record(
                "After cancelling the returned task, \(cancelled.value) of the 3 jobs saw the cancel.")
        }
        await scene.finish(work)
    }

    @Test("Every job runs at background priority", .exposesBug(Bugs.jobsLosePriority))
    func jobsRunAtBackgroundPriority() async {
        let scene = GalleryScene()
        guard let work = await scene.startJobs() else { return }
        for start in scene.jobs.starts where start.priority != .background {
            Bugs.jobsLosePriority.record(
                "The \(start.kind) job ran at \(describe(start.priority)), not at .background.")
        }
        await scene.finish(work)
    }

    @Test("No job runs on the main actor")
    func jobsStayOffTheMainActor() async {
        let scene = GalleryScene()
        guard let work = await scene.startJobs() else { return }
        for start in scene.jobs.starts where start.onMainActor {
            Bugs.jobOnMainActor.record("The \(start.kind) job ran on the main actor.")
        }
        await scene.finish(work)
        #expect(scene.jobs.finished.value == 3, Bugs.neverEnds.comment)
    }
}
