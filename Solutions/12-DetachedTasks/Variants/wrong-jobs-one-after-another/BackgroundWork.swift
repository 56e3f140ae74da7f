import SimulatedWorld

extension Gallery {
    public func startBackgroundJobs(for thumbnail: Thumbnail) -> Task<Void, any Error> {
        let jobs = jobs
        return Task.detached(priority: .background) {
            for kind in BackgroundJobs.Kind.allCases {
                try await jobs.run(kind, for: thumbnail)
            }
        }
    }
}
