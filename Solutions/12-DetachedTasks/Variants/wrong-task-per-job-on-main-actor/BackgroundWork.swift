import SimulatedWorld

extension Gallery {
    public func startBackgroundJobs(for thumbnail: Thumbnail) -> Task<Void, any Error> {
        let jobs = jobs
        return Task(priority: .background) {
            let cache = Task { try await jobs.run(.cache, for: thumbnail) }
            let log = Task { try await jobs.run(.log, for: thumbnail) }
            let index = Task { try await jobs.run(.index, for: thumbnail) }
            try await cache.value
            try await log.value
            try await index.value
        }
    }
}
