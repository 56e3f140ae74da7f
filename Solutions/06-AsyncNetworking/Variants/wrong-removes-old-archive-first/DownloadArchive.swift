import Foundation
import SimulatedWorld

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Downloads the user's photo archive (`GET /archive.zip`) and saves it at `destination`,
/// replacing the copy saved last time, if any. Throws `PhotoAPIError.unexpectedStatus`
/// when the service does not answer 2xx.
public func downloadArchive(
    from baseURL: URL, to destination: URL, using session: SimulatedURLSession
) async throws {
    let request = URLRequest(url: baseURL.appendingPathComponent("archive.zip"))
    // Make room for the new archive first, so that the move can't find the old one in the way.
    let fileManager = FileManager.default
    if fileManager.fileExists(atPath: destination.path) {
        try fileManager.removeItem(at: destination)
    }
    let (temporaryFile, response) = try await session.download(for: request)
    defer { try? fileManager.removeItem(at: temporaryFile) }
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    guard (200..<300).contains(status) else {
        throw PhotoAPIError.unexpectedStatus(status)
    }
    // moveItem refuses to overwrite. (replaceItemAt would swap atomically on macOS, but
    // swift-corelibs-foundation on Linux does not implement it reliably.)
    try fileManager.moveItem(at: temporaryFile, to: destination)
}
