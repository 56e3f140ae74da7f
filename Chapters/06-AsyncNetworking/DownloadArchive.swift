import Foundation
import SimulatedWorld

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Downloads the user's photo archive (`GET /archive.zip`) and saves it at `destination`,
/// replacing the copy saved last time, if any. Throws `PhotoAPIError.unexpectedStatus`
/// when the service does not answer 2xx.
///
/// Exercise: it works the first time, when all goes well. Look at what it leaves on disk
/// otherwise.
public func downloadArchive(
    from baseURL: URL, to destination: URL, using session: SimulatedURLSession
) async throws {
    let request = URLRequest(url: baseURL.appendingPathComponent("archive.zip"))
    let (temporaryFile, response) = try await session.download(for: request)
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    guard (200..<300).contains(status) else {
        throw PhotoAPIError.unexpectedStatus(status)
    }
    try FileManager.default.moveItem(at: temporaryFile, to: destination)
}
