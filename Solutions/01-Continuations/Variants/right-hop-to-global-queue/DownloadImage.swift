import Dispatch
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
            let result: Result<DetailedImage, any Error> =
                if let image { .success(image) } else if let error { .failure(error) } else {
                    .failure(ImageDownloadError.missingImageAndError(imageNumber: imageNumber))
                }
            DispatchQueue.global().async { continuation.resume(with: result) }
        }
    }
}
