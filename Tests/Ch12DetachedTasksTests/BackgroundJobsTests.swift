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

    /// Lets the jobs finish and waits for the task that stands for them. Returns how the
    /// task ended (with `Bugs.neverEnds` recorded if it never did).
    @discardableResult
    func finish(_ work: Task<Void, any Error>) async -> BoundedOutcome<Void> {
        jobs.releaseAll()
        let outcome = await withinHangLimit(hangLimit) { try await work.value }
        if case .stillSuspended = outcome {
            Bugs.neverEnds.record("The task was still running after every job had been let through.")
        }
        return outcome
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
        if case .finished(.success) = await scene.finish(work), scene.jobs.finished.value < 3 {
            Bugs.outcomeHidden.record(
                "The task was cancelled and \(3 - scene.jobs.finished.value) of its 3 jobs did not finish, yet it ended without an error."
            )
        }
    }

    @Test(
        "Cancelling the background task before it runs ends every job without running it to the end",
        .exposesBug(Bugs.jobsOutliveCancel))
    func cancelledBeforeItRuns() async {
        let scene = GalleryScene()
        let work = await Task(priority: .userInitiated) {
            let work = scene.gallery.startBackgroundJobs(for: .expected(for: "harbour"))
            work.cancel()  // at once, in the same turn of the main actor
            return work
        }.value
        // Nothing is let through: a job that started must see the cancel and end.
        if case .stillSuspended = await withinHangLimit(hangLimit, { _ = try? await work.value }) {
            let jobs = scene.jobs
            Bugs.jobsOutliveCancel.record(
                "The task was cancelled as soon as it was created, yet \(jobs.inFlight.value) jobs were still running"
                    + " (\(jobs.started.value) started, \(jobs.cancelled.value) saw the cancel).")
        }
        await scene.finish(work)
        let finished = scene.jobs.finished.value
        if finished > 0 {
            Bugs.jobsOutliveCancel.record(
                "\(finished) of the jobs of a task cancelled before it ran went on to the end once they were let through."
            )
        }
    }

    @Test(
        "A failing job cancels the other jobs, and the task throws its error",
        .exposesBug(Bugs.failureLeavesJobsRunning))
    func failureCancelsTheOtherJobs() async {
        let scene = GalleryScene()
        guard let work = await scene.startJobs() else { return }
        scene.jobs.fail(.index)
        let cancelled = scene.jobs.cancelled
        if case .stillSuspended = await withinHangLimit(hangLimit, { await cancelled.reach(2) }) {
            Bugs.failureLeavesJobsRunning.record(
                "The index job failed while the cache and log jobs were running; "
                    + "\(cancelled.value) of those 2 saw a cancel, the rest went on.")
        }
        switch await scene.finish(work) {
        case .finished(.success):
            Bugs.outcomeHidden.record(
                "The index job failed, yet the task that stands for the jobs ended without an error.")
        case .finished(.failure(let error)) where !(error is BackgroundJobFailure):
            Bugs.outcomeHidden.record(
                "The index job failed with \"\(BackgroundJobFailure(kind: .index, id: "harbour"))\", but the task threw \(error) instead."
            )
        case .finished, .stillSuspended:
            break
        }
        #expect(scene.jobs.starts.count == 3, "Each job runs once: \(scene.jobs.starts.map(\.kind)).")
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
