import SimulatedWorld

/// The images the app has downloaded, kept in memory so that each one is downloaded once.
public actor ImageCache {
    private let host: ImageHost
    private var inFlight: [String: Task<HostedImage, any Error>] = [:]

    public init(host: ImageHost) {
        self.host = host
    }

    public func image(for id: String) async throws -> HostedImage {
        if let download = inFlight[id] {
            return try await download.value
        }
        let download = Task {
            defer { inFlight[id] = nil }
            return try await host.download(id)
        }
        inFlight[id] = download
        return try await download.value
    }
}
