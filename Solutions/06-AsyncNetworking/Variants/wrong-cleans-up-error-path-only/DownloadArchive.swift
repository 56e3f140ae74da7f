import Foundation
import SimulatedWorld

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

public func downloadArchive(
    from baseURL: URL, to destination: URL, using session: SimulatedURLSession
) async throws {
    let request = URLRequest(url: baseURL.appendingPathComponent("archive.zip"))
    let (temporaryFile, response) = try await session.download(for: request)
    let fileManager = FileManager.default
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    guard (200..<300).contains(status) else {
        try? fileManager.removeItem(at: temporaryFile)
        throw PhotoAPIError.unexpectedStatus(status)
    }
    try fileManager.moveItem(at: temporaryFile, to: destination)
}
