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
/// Solution: operators on the line sequence. `compactMap` decodes (and skips what doesn't
/// decode), `first(where:)` stops at the first match. Returning drops the sequence and its
/// iterator, and the stream's onTermination hangs up the connection.
public func firstPhoto(
    reaching threshold: Int, from baseURL: URL, using session: SimulatedURLSession
) async throws -> FavoriteUpdate? {
    let request = URLRequest(url: baseURL.appendingPathComponent("favorites/live"))
    let (bytes, _) = try await session.bytes(for: request)
    do {
        return try await bytes.lines
            .compactMap { try? JSONDecoder().decode(FavoriteUpdate.self, from: Data($0.utf8)) }
            .first { $0.favorites >= threshold }
    } catch {
        // The feed is gone either way: no photo reached the threshold.
        return nil
    }
}
