import Foundation
import SimulatedWorld

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Uploads a new photo: `POST /photos` with the JPEG as the body. The service answers 201 with
/// the new photo's summary.
public func uploadPhoto(_ jpeg: Data, to baseURL: URL, using session: SimulatedURLSession) async throws
    -> PhotoSummary
{
    var request = URLRequest(url: baseURL.appendingPathComponent("photos"))
    // upload(for:from:) sends the body but takes the method from the request, and a new
    // URLRequest says GET. The service creates photos on POST.
    request.httpMethod = "POST"
    // A dropped connection is worth one more try.
    let (data, response): (Data, URLResponse)
    do {
        (data, response) = try await session.upload(for: request, from: jpeg)
    } catch let error as URLError where error.code == .networkConnectionLost {
        (data, response) = try await session.upload(for: request, from: jpeg)
    }
    guard let status = (response as? HTTPURLResponse)?.statusCode else { throw PhotoAPIError.notHTTP }
    guard (200..<300).contains(status) else { throw PhotoAPIError.unexpectedStatus(status) }
    return try JSONDecoder().decode(PhotoSummary.self, from: data)
}
