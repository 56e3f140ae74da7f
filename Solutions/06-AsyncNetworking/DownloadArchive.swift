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
    let (temporaryFile, response) = try await session.download(for: request)
    // From here on the temporary file is ours. Whatever happens next, it goes: after a
    // successful move this finds nothing to remove; on every other path it cleans up.
    let fileManager = FileManager.default
    defer { try? fileManager.removeItem(at: temporaryFile) }
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    guard (200..<300).contains(status) else {
        throw PhotoAPIError.unexpectedStatus(status)
    }
    // moveItem refuses to overwrite. (replaceItemAt would swap atomically on macOS, but
    // swift-corelibs-foundation on Linux does not implement it reliably.)
    if fileManager.fileExists(atPath: destination.path) {
        try fileManager.removeItem(at: destination)
    }
    try fileManager.moveItem(at: temporaryFile, to: destination)
}
