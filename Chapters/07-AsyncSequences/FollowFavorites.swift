import Foundation
import SimulatedWorld

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Follows the live favorites feed (`GET /favorites/live`, one JSON line per change) and
/// shows each change in `model` as it arrives, until the server ends the feed.
///
/// Exercise: at the end, the screen shows the right counts. Run
/// `swift run workbook check 07` (or `swift test --filter Ch07AsyncSequencesTests`) to see what
/// the user sees meanwhile.
/// Read Chapters/07-AsyncSequences/README.md first.
public func followFavorites(
    from baseURL: URL, using session: SimulatedURLSession, into model: FavoritesModel
) async throws {
    let request = URLRequest(url: baseURL.appendingPathComponent("favorites/live"))
    let (bytes, _) = try await session.bytes(for: request)
    var updates: [FavoriteUpdate] = []
    for try await line in bytes.lines {
        updates.append(try JSONDecoder().decode(FavoriteUpdate.self, from: Data(line.utf8)))
    }
    for update in updates {
        model.apply(update)
    }
}
