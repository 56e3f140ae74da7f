import Foundation
import SimulatedWorld

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Uploads a new photo: `POST /photos` with the JPEG as the body. The service answers 201 with
/// the new photo's summary.
///
/// Exercise: the request, the body and the decoding look right, yet the upload fails. Read the
/// error it throws, and what the server says it received.
public func uploadPhoto(_ jpeg: Data, to baseURL: URL, using session: SimulatedURLSession) async throws
    -> PhotoSummary
{
    let request = URLRequest(url: baseURL.appendingPathComponent("photos"))
    let (data, response) = try await session.upload(for: request, from: jpeg)
    guard let status = (response as? HTTPURLResponse)?.statusCode else { throw PhotoAPIError.notHTTP }
    guard (200..<300).contains(status) else { throw PhotoAPIError.unexpectedStatus(status) }
    return try JSONDecoder().decode(PhotoSummary.self, from: data)
}
