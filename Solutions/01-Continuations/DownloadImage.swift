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
            // Fold the three possible answers into one Result, then resume once.
            // A single `resume(with:)` cannot be forgotten on one path or repeated on another.
            let result: Result<DetailedImage, any Error>
            if let image {
                result = .success(image)
            } else if let error {
                result = .failure(error)
            } else {
                // (nil, nil) is legal for this API's types: give it a name instead of `error!`.
                result = .failure(ImageDownloadError.missingImageAndError(imageNumber: imageNumber))
            }
            continuation.resume(with: result)
        }
    }
}
