import SimulatedWorld

extension Gallery {
    public func startBackgroundJobs(for thumbnail: Thumbnail) -> Task<Void, any Error> {
        let jobs = jobs
        return Task(priority: .background) {
            try await withThrowingDiscardingTaskGroup { group in
                for kind in BackgroundJobs.Kind.allCases {
                    group.addTask { try await jobs.run(kind, for: thumbnail) }
                }
            }
        }
    }
}
