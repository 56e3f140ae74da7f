import SimulatedWorld

extension Gallery {
    /// Starts the background jobs that follow a loaded thumbnail (cache, log and search
    /// index) side by side, at background priority, and returns the one task that stands
    /// for all of them: cancel it, and every job is cancelled.
    ///
    /// Solution: one detached task at background priority, and the jobs as child tasks of
    /// a task group inside it. Children inherit the priority and the cancellation of their
    /// parent, and the group waits for all of them.
    public func startBackgroundJobs(for thumbnail: Thumbnail) -> Task<Void, any Error> {
        let jobs = jobs
        return Task.detached(priority: .background) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for kind in BackgroundJobs.Kind.allCases {
                    group.addTask { try await jobs.run(kind, for: thumbnail) }
                }
                try await group.waitForAll()
            }
        }
    }
}
