import SimulatedWorld

/// The images the app has downloaded, kept in memory so that each one is downloaded once.
///
/// Many screens ask for images at once: a list and its detail view may want the same one
/// at the same moment. Every caller should get the image, the host should be asked for it
/// only once, and different images should download side by side.
///
/// Exercise: one caller at a time works. Run `swift run workbook check 14` (or
/// `swift test --filter Ch14ActorReentrancyTests`) to see what two callers at once do.
/// Read Chapters/14-ActorReentrancy/README.md first.
public actor ImageCache {
    private let host: ImageHost
    private var images: [String: HostedImage] = [:]

    public init(host: ImageHost) {
        self.host = host
    }

    /// The image `id`: from memory if it has been downloaded, otherwise downloaded from the
    /// host and kept. Throws the host's error if the download fails; a later call tries again.
    public func image(for id: String) async throws -> HostedImage {
        if let image = images[id] {
            return image
        }
        let image = try await host.download(id)
        images[id] = image
        return image
    }
}
