import SimulatedWorld

/// The images the app has downloaded, kept in memory so that each one is downloaded once.
public actor ImageCache {
    private let host: ImageHost
    private var images: [String: HostedImage] = [:]
    private var inFlight: [String: Task<HostedImage, any Error>] = [:]

    public init(host: ImageHost) {
        self.host = host
    }

    public func image(for id: String) async throws -> HostedImage {
        if let image = images[id] {
            return image
        }
        if let download = inFlight[id] {
            return try await waitFor(download)
        }
        let download = Task {
            defer { inFlight[id] = nil }
            let image = try await host.download(id)
            images[id] = image
            return image
        }
        inFlight[id] = download
        return try await waitFor(download)
    }

    /// Waits for the download, and passes a cancel of this caller on to it.
    private func waitFor(_ download: Task<HostedImage, any Error>) async throws -> HostedImage {
        try await withTaskCancellationHandler {
            try await download.value
        } onCancel: {
            download.cancel()
        }
    }
}
