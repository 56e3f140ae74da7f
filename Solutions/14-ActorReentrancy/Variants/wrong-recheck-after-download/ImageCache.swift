import SimulatedWorld

/// The images the app has downloaded, kept in memory so that each one is downloaded once.
public actor ImageCache {
    private let host: ImageHost
    private var images: [String: HostedImage] = [:]

    public init(host: ImageHost) {
        self.host = host
    }

    public func image(for id: String) async throws -> HostedImage {
        if let image = images[id] {
            return image
        }
        let image = try await host.download(id)
        // Another caller may have stored it while this one was downloading: keep theirs.
        if let stored = images[id] {
            return stored
        }
        images[id] = image
        return image
    }
}
