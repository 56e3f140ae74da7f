import SimulatedWorld

/// The images the app has downloaded, kept in memory so that each one is downloaded once.
public actor ImageCache {
    private let host: ImageHost
    private var images: [String: HostedImage] = [:]
    /// The callers waiting for a download that another caller is doing.
    private var waiting: [String: [CheckedContinuation<HostedImage, any Error>]] = [:]

    public init(host: ImageHost) {
        self.host = host
    }

    public func image(for id: String) async throws -> HostedImage {
        if let image = images[id] {
            return image
        }
        if waiting[id] != nil {
            return try await withCheckedThrowingContinuation { continuation in
                waiting[id, default: []].append(continuation)
            }
        }
        waiting[id] = []
        do {
            let image = try await host.download(id)
            images[id] = image
            for continuation in waiting.removeValue(forKey: id) ?? [] {
                continuation.resume(returning: image)
            }
            return image
        } catch {
            for continuation in waiting.removeValue(forKey: id) ?? [] {
                continuation.resume(throwing: error)
            }
            throw error
        }
    }
}
