import SimulatedWorld

/// The images the app has downloaded, kept in memory so that each one is downloaded once.
public actor ImageCache {
    private let host: ImageHost
    private var images: [String: HostedImage] = [:]

    public init(host: ImageHost) {
        self.host = host
    }

    public func image(for id: String) async throws -> HostedImage {
        // One task for the whole lookup, so that the actor does it in one go.
        try await Task {
            if let image = images[id] {
                return image
            }
            let image = try await host.download(id)
            images[id] = image
            return image
        }.value
    }
}
