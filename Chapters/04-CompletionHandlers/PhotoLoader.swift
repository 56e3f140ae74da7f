import Dispatch
import Foundation
import SimulatedWorld

/// Why a photo could not be fetched, beyond the service's own transport errors.
public enum PhotoError: Error, Hashable {
    /// The server answered with a status other than 200.
    case invalidServerResponse
    /// The server answered 200, but the bytes are not a photo.
    case undecodableImage
}

/// Fetches photos from a ``PhotoService`` for the UI.
///
/// Exercise: `fetchPhoto(url:completion:)` has three classic mistakes in eleven lines. Run
/// `swift run workbook check 04` (or `swift test --filter Ch04CompletionHandlersTests`) to see them, then fix them.
/// Read Chapters/04-CompletionHandlers/README.md first.
public final class PhotoLoader: Sendable {
    private let service: PhotoService

    public init(service: PhotoService) {
        self.service = service
    }

    /// Fetches the photo at `url` and hands it, or an error, to `completion` on the main queue.
    public func fetchPhoto(url: URL, completion: @escaping @Sendable (Photo?, (any Error)?) -> Void) {
        let task = service.dataTask(with: url) { data, response, error in
            if let error {
                completion(nil, error)
            }
            if let data, let response, response.statusCode == 200 {
                DispatchQueue.main.async {
                    completion(Photo(data: data), nil)
                }
            } else {
                completion(nil, PhotoError.invalidServerResponse)
            }
        }
        task.resume()
    }
}
