import Foundation
import SimulatedWorld

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

public func followFavorites(
    from baseURL: URL, using session: SimulatedURLSession, into model: FavoritesModel
) async throws {
    let request = URLRequest(url: baseURL.appendingPathComponent("favorites/live"))
    let (bytes, _) = try await session.bytes(for: request)
    do {
        for try await line in bytes.lines {
            guard let update = try? JSONDecoder().decode(FavoriteUpdate.self, from: Data(line.utf8)) else {
                await model.skipMalformedLine()
                continue
            }
            await model.apply(update)
        }
    } catch {
        print("Favorites feed stopped: \(error)")
    }
}
