import Dispatch
import Foundation
import SimulatedWorld
import Synchronization

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
    /// The addresses whose last fetch failed, and how: a failing server is not asked again.
    private let failed = Mutex<[URL: any Error]>([:])

    public init(service: PhotoService) {
        self.service = service
    }

    /// Fetches the photo at `url` and hands it, or an error, to `completion` on the main queue.
    ///
    /// Every path ends in one `Result`, and that one value is delivered by one hop to the
    /// main queue: exactly once, always on the main queue, never `(nil, nil)`.
    public func fetchPhoto(url: URL, completion: @escaping @Sendable (Photo?, (any Error)?) -> Void) {
        if let error = failed.withLock({ $0[url] }) {
            DispatchQueue.main.async { completion(nil, error) }
            return
        }
        let task = service.dataTask(with: url) { data, response, error in
            let result = Result { () throws -> Photo in
                if let error { throw error }
                guard let data, let response else { throw PhotoError.invalidServerResponse }
                return try Self.photo(from: data, response)
            }
            if case .failure(let error) = result {
                self.failed.withLock { $0[url] = error }
            }
            DispatchQueue.main.async {
                switch result {
                case .success(let photo): completion(photo, nil)
                case .failure(let error): completion(nil, error)
                }
            }
        }
        task.resume()
    }

    /// Fetches the photo at `url`. An async function returns once or throws once, to the
    /// caller's own actor, and its return type has no room for "neither".
    ///
    /// Cancelling the calling task cancels the request: this then throws what `data(from:)`
    /// throws, `URLError(.cancelled)` as in `URLSession`, not `CancellationError`.
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
