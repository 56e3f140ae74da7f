import SimulatedWorld

/// Thrown when the image server answers with neither an image nor an error.
public enum ImageDownloadError: Error, Hashable {
    case missingImageAndError(imageNumber: Int)
}

/// Downloads image `imageNumber` and its metadata from `server`, the async way.
public func downloadImageAndMetadata(
    imageNumber: Int, from server: ImageServer
) async throws -> DetailedImage {
    try await withCheckedThrowingContinuation { continuation in
        server.downloadImageAndMetadata(imageNumber: imageNumber) { image, error in
            guard let image else {
                // No more `error!`: describe whatever we got.
                print("Download of image \(imageNumber) failed: \(error.map { "\($0)" } ?? "no error given")")
                return
            }
            continuation.resume(returning: image)
        }
    }
}
