import SimulatedWorld

extension Gallery {
    public func startBackgroundJobs(for thumbnail: Thumbnail) -> Task<Void, any Error> {
        let jobs = jobs
        return Task.detached(priority: .background) {
            async let cache: Void = jobs.run(.cache, for: thumbnail)
            async let log: Void = jobs.run(.log, for: thumbnail)
            async let index: Void = jobs.run(.index, for: thumbnail)
            _ = try await (cache, log, index)
        }
    }
}
