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
    let decoder = JSONDecoder()
    var lines = bytes.lines.makeAsyncIterator()
    while let line = try await lines.next() {
        do {
            let update = try decoder.decode(FavoriteUpdate.self, from: Data(line.utf8))
            await MainActor.run { model.apply(update) }
        } catch is DecodingError {
            await MainActor.run { model.skipMalformedLine() }
        }
    }
}
