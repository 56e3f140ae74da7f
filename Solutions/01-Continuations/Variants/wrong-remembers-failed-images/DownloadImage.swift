import SimulatedWorld
import Synchronization

/// Thrown when the image server answers with neither an image nor an error.
public enum ImageDownloadError: Error, Hashable {
    case missingImageAndError(imageNumber: Int)
}

/// The images whose last download failed, and how: no point asking a failing server again.
private let failedDownloads = Mutex<[Int: any Error]>([:])

/// Downloads image `imageNumber` and its metadata from `server`, the async way.
public func downloadImageAndMetadata(
    imageNumber: Int, from server: ImageServer
) async throws -> DetailedImage {
    if let error = failedDownloads.withLock({ $0[imageNumber] }) { throw error }
    return try await withCheckedThrowingContinuation { continuation in
        server.downloadImageAndMetadata(imageNumber: imageNumber) { image, error in
            let result: Result<DetailedImage, any Error>
            if let image {
                result = .success(image)
            } else if let error {
                result = .failure(error)
            } else {
                result = .failure(ImageDownloadError.missingImageAndError(imageNumber: imageNumber))
            }
            if case .failure(let error) = result {
                failedDownloads.withLock { $0[imageNumber] = error }
            }
            continuation.resume(with: result)
        }
    }
}
