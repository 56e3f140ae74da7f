import Foundation
import SimulatedWorld

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Watches the live favorites feed (`GET /favorites/live`) for the first photo that reaches
/// `threshold` favorites, returns that update and hangs up: the lines after it are nobody's
/// business. Lines that are not favorite updates are skipped. Returns nil if the server ends
/// the feed first.
public func firstPhoto(
    reaching threshold: Int, from baseURL: URL, using session: SimulatedURLSession
) async throws -> FavoriteUpdate? {
    let request = URLRequest(url: baseURL.appendingPathComponent("favorites/live"))
    let (bytes, _) = try await session.bytes(for: request)
    let popular = bytes.lines
        .compactMap { try? JSONDecoder().decode(FavoriteUpdate.self, from: Data($0.utf8)) }
        .filter { $0.favorites >= threshold }
    // filter does the work; keep the first one it lets through.
    var found: FavoriteUpdate?
    for try await update in popular where found == nil { found = update }
    return found
}
