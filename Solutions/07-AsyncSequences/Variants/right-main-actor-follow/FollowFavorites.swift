import Foundation
import SimulatedWorld

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@MainActor
public func followFavorites(
    from baseURL: URL, using session: SimulatedURLSession, into model: FavoritesModel
) async throws {
    let request = URLRequest(url: baseURL.appendingPathComponent("favorites/live"))
    let (bytes, _) = try await session.bytes(for: request)
    for try await line in bytes.lines {
        if let update = try? JSONDecoder().decode(FavoriteUpdate.self, from: Data(line.utf8)) {
            model.apply(update)
        } else {
            model.skipMalformedLine()
        }
    }
}
