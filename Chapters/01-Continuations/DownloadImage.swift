import SimulatedWorld

/// Thrown when the image server answers with neither an image nor an error.
public enum ImageDownloadError: Error, Hashable {
    case missingImageAndError(imageNumber: Int)
}

/// Downloads image `imageNumber` and its metadata from `server`, the async way.
///
/// Exercise: this wrapper compiles, and works when the download succeeds. Run
/// `swift run workbook check 01` (or `swift test --filter Ch01ContinuationsTests`) to see what
/// goes wrong on the other paths, then fix it.
/// Read Chapters/01-Continuations/README.md first.
public func downloadImageAndMetadata(
    imageNumber: Int, from server: ImageServer
) async throws -> DetailedImage {
    try await withCheckedThrowingContinuation { continuation in
        server.downloadImageAndMetadata(imageNumber: imageNumber) { image, error in
            guard let image else {
                print("Download of image \(imageNumber) failed: \(error!)")
                return
            }
            continuation.resume(returning: image)
        }
    }
}
