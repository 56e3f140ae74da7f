import SimulatedWorld

/// The images the app has downloaded, kept in memory so that each one is downloaded once.
///
/// Many screens ask for images at once: a list and its detail view may want the same one
/// at the same moment. Every caller should get the image, the host should be asked for it
/// only once, and different images should download side by side.
///
/// Solution: the actor keeps, next to the finished images, one `Task` per download in
/// flight. A caller that finds one awaits it instead of starting another download.
public actor ImageCache {
    private let host: ImageHost
    private var images: [String: HostedImage] = [:]
    /// The downloads in flight, one per id, shared by every caller that asks meanwhile.
    private var inFlight: [String: Task<HostedImage, any Error>] = [:]

    public init(host: ImageHost) {
        self.host = host
    }

    /// The image `id`: from memory if it has been downloaded, otherwise downloaded from the
    /// host and kept. Throws the host's error if the download fails; a later call tries again.
    public func image(for id: String) async throws -> HostedImage {
        if let image = images[id] {
            return image
        }
        // Someone is already downloading it: share that download.
        if let download = inFlight[id] {
            return try await download.value
        }
        // The check above and this entry happen in one stretch, with no `await` between
        // them, so the next caller for `id` is sure to find the entry.
        let download = Task {
            // The task runs on this actor (it uses `self`). Whatever the outcome, its entry
            // goes: a failed download is not kept, so the next caller tries again.
            defer { inFlight[id] = nil }
            let image = try await host.download(id)
            images[id] = image
            return image
        }
        inFlight[id] = download
        // Awaiting an unstructured task's value does not pass this caller's cancellation
        // on to it: a caller that gives up doesn't take the download away from the others.
        return try await download.value
    }
}
