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
            if let image {
                continuation.resume(returning: image)
            } else {
                // No image and no error: the server evidently did not find it.
                continuation.resume(throwing: error ?? ImageServerError.notFound(imageNumber: imageNumber))
            }
        }
    }
}
