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
            switch (image, error) {
            case (let image?, _):
                continuation.resume(returning: image)
            case (nil, let error?):
                continuation.resume(throwing: error)
            case (nil, nil):
                continuation.resume(throwing: ImageDownloadError.missingImageAndError(imageNumber: imageNumber))
            }
        }
    }
}
