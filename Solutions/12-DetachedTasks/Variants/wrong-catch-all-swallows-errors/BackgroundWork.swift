import SimulatedWorld

extension Gallery {
    public func startBackgroundJobs(for thumbnail: Thumbnail) -> Task<Void, any Error> {
        let jobs = jobs
        return Task<Void, any Error>.detached(priority: .background) {
            do {
                try await withThrowingDiscardingTaskGroup { group in
                    for kind in BackgroundJobs.Kind.allCases {
                        group.addTask { try await jobs.run(kind, for: thumbnail) }
                    }
                }
            } catch {
                // A failed background job is not worth bothering anyone about.
            }
        }
    }
}
