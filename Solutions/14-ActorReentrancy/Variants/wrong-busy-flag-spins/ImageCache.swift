import SimulatedWorld

/// The images the app has downloaded, kept in memory so that each one is downloaded once.
public actor ImageCache {
    private let host: ImageHost
    private var images: [String: HostedImage] = [:]
    private var isDownloading = false

    public init(host: ImageHost) {
        self.host = host
    }

    public func image(for id: String) async throws -> HostedImage {
        // Wait while a download runs, so that two callers never download at once.
        while isDownloading {
            await Task.yield()
        }
        if let image = images[id] {
            return image
        }
        isDownloading = true
        defer { isDownloading = false }
        let image = try await host.download(id)
        images[id] = image
        return image
    }
}
