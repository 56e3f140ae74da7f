import SimulatedWorld

extension Gallery {
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
