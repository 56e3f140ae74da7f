import SimulatedWorld

/// The images the app has downloaded, kept in memory so that each one is downloaded once.
public actor ImageCache {
    private let host: ImageHost
    /// One download per id, running or finished. Awaiting a finished task returns its image at once.
    private var downloads: [String: Task<HostedImage, any Error>] = [:]

    public init(host: ImageHost) {
        self.host = host
    }

    public func image(for id: String) async throws -> HostedImage {
        if let download = downloads[id] {
            return try await download.value
        }
        let download = Task {
            do {
                return try await host.download(id)
            } catch {
                // Runs on the actor, once: a failure is not kept, the next caller tries again.
                downloads[id] = nil
                throw error
            }
        }
        downloads[id] = download
        return try await download.value
    }
}
