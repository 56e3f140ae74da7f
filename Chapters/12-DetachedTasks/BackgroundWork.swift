import SimulatedWorld

extension Gallery {
    /// Starts the background jobs that follow a loaded thumbnail (cache, log and search
    /// index) side by side, at background priority, and returns the one task that stands
    /// for all of them: cancel it, and every job is cancelled. The jobs stand or fall
    /// together: if one fails, the others are cancelled, and the task throws that job's error.
    ///
    /// Exercise: the jobs run, side by side. Run `swift run workbook check 12` (or
    /// `swift test --filter Ch12DetachedTasksTests`) to see what cancelling the returned task,
    /// or a failing job, does to them.
    public func startBackgroundJobs(for thumbnail: Thumbnail) -> Task<Void, any Error> {
        let jobs = jobs
        return Task.detached(priority: .background) {
            // One detached task per job, so that they run side by side.
            let cache = Task.detached { try await jobs.run(.cache, for: thumbnail) }
            let log = Task.detached { try await jobs.run(.log, for: thumbnail) }
            let index = Task.detached { try await jobs.run(.index, for: thumbnail) }
            try await cache.value
            try await log.value
            try await index.value
        }
    }
}
