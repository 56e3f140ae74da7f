import SimulatedWorld

extension Gallery {
    /// Starts the background jobs that follow a loaded thumbnail (cache, log and search
    /// index) side by side, at background priority, and returns the one task that stands
    /// for all of them: cancel it, and every job is cancelled. The jobs stand or fall
    /// together: if one fails, the others are cancelled, and the task throws that job's error.
    ///
    /// Solution: one detached task at background priority, and the jobs as child tasks of
    /// a discarding task group inside it. Children inherit the priority and the
    /// cancellation of their parent; the group waits for all of them, and the first child
    /// that throws cancels the rest and makes the group throw its error.
    public func startBackgroundJobs(for thumbnail: Thumbnail) -> Task<Void, any Error> {
        let jobs = jobs
        return Task.detached(priority: .background) {
            try await withThrowingDiscardingTaskGroup { group in
                for kind in BackgroundJobs.Kind.allCases {
                    group.addTask { try await jobs.run(kind, for: thumbnail) }
                }
            }
        }
    }
}
