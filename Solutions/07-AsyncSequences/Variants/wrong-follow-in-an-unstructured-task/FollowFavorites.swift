import Foundation
import SimulatedWorld

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Follows the live favorites feed (`GET /favorites/live`, one JSON line per change) and
/// shows each change in `model` as it arrives, until the server ends the feed.
public func followFavorites(
    from baseURL: URL, using session: SimulatedURLSession, into model: FavoritesModel
) async throws {
    let request = URLRequest(url: baseURL.appendingPathComponent("favorites/live"))
    let (bytes, _) = try await session.bytes(for: request)
    let decoder = JSONDecoder()
    // Each line is handled as it arrives: the loop body runs once per line, while the
    // response is still open. Collecting first would show nothing until the feed ends.
    // The whole loop in a task of its own, awaited: the caller waits for it as before.
    try await Task {
        for try await line in bytes.lines {
            // One bad line is the server's mistake, not the end of the feed: skip it, count it.
            guard let update = try? decoder.decode(FavoriteUpdate.self, from: Data(line.utf8)) else {
                await model.skipMalformedLine()
                continue
            }
            await model.apply(update)  // hops to the main actor, where the model lives
        }
    }.value
}
