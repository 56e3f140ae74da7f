import SimulatedWorld

/// The images the app has downloaded, kept in memory so that each one is downloaded once.
public actor ImageCache {
    private let host: ImageHost
    /// One download per id, shared by every caller; a finished task hands out its image.
    private var downloads: [String: Task<HostedImage, any Error>] = [:]

    public init(host: ImageHost) {
        self.host = host
    }

    public func image(for id: String) async throws -> HostedImage {
        if let download = downloads[id] {
            return try await download.value
        }
        let host = host
        let download = Task { try await host.download(id) }
        downloads[id] = download
        return try await download.value
    }
}
