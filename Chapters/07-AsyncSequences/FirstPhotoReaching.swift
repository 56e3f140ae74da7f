import Foundation
import SimulatedWorld

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Watches the live favorites feed (`GET /favorites/live`) for the first photo that reaches
/// `threshold` favorites, returns that update and hangs up: the lines after it are nobody's
/// business. Lines that are not favorite updates are skipped. Returns nil if the server ends
/// the feed first.
///
/// Exercise: it returns the right photo once the server ends the feed. A live feed may not
/// end for hours.
public func firstPhoto(
    reaching threshold: Int, from baseURL: URL, using session: SimulatedURLSession
) async throws -> FavoriteUpdate? {
    let request = URLRequest(url: baseURL.appendingPathComponent("favorites/live"))
    let (bytes, _) = try await session.bytes(for: request)
    var found: FavoriteUpdate?
    for try await line in bytes.lines {
        guard let update = try? JSONDecoder().decode(FavoriteUpdate.self, from: Data(line.utf8)) else { continue }
        if found == nil, update.favorites >= threshold { found = update }
    }
    return found
}
