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
        download(imageNumber, from: server, retriesLeft: 1) { continuation.resume(with: $0) }
    }
}

/// Asks the server, and asks once more when it answers with neither an image nor an error.
private func download(
    _ imageNumber: Int, from server: ImageServer, retriesLeft: Int,
    then deliver: @escaping @Sendable (Result<DetailedImage, any Error>) -> Void
) {
    server.downloadImageAndMetadata(imageNumber: imageNumber) { image, error in
        if let image {
            deliver(.success(image))
        } else if let error {
            deliver(.failure(error))
        } else if retriesLeft > 0 {
            download(imageNumber, from: server, retriesLeft: retriesLeft - 1, then: deliver)
        } else {
            deliver(.failure(ImageDownloadError.missingImageAndError(imageNumber: imageNumber)))
        }
    }
}
