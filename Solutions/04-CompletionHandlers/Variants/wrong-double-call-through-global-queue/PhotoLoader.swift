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
public final class PhotoLoader: Sendable {
    private let service: PhotoService

    public init(service: PhotoService) {
        self.service = service
    }

    /// Fetches the photo at `url` and hands it, or an error, to `completion` on the main queue.
    public func fetchPhoto(url: URL, completion: @escaping @Sendable (Photo?, (any Error)?) -> Void) {
        let task = service.dataTask(with: url) { data, response, error in
            if let error {
                Self.deliver(nil, error, to: completion)
            }
            if let data, let response, response.statusCode == 200 {
                if let photo = Photo(data: data) {
                    Self.deliver(photo, nil, to: completion)
                } else {
                    Self.deliver(nil, PhotoError.undecodableImage, to: completion)
                }
            } else {
                Self.deliver(nil, PhotoError.invalidServerResponse, to: completion)
            }
        }
        task.resume()
    }

    /// Leaves the service's queue first, then calls `completion` on the main queue.
    private static func deliver(
        _ photo: Photo?, _ error: (any Error)?, to completion: @escaping @Sendable (Photo?, (any Error)?) -> Void
    ) {
        DispatchQueue.global().async {
            DispatchQueue.main.async { completion(photo, error) }
        }
    }

    /// Fetches the photo at `url`. An async function returns once or throws once, to the
    /// caller's own actor, and its return type has no room for "neither".
    public func fetchPhoto(url: URL) async throws -> Photo {
        let (data, response) = try await service.data(from: url)
        return try Self.photo(from: data, response)
    }

    /// The photo in a successful response, or the error that says why there is none.
    private static func photo(from data: Data, _ response: PhotoResponse) throws -> Photo {
        guard response.statusCode == 200 else { throw PhotoError.invalidServerResponse }
        guard let photo = Photo(data: data) else { throw PhotoError.undecodableImage }
        return photo
    }
}
