import SimulatedWorld

public struct FavoriteUpdate: Sendable, Hashable, Codable {
    public let photoId: String
    public let favorites: Int

    public init(photoId: String, favorites: Int) {
        self.photoId = photoId
        self.favorites = favorites
    }
}

public struct FavoritesSnapshot: Sendable, Hashable {
    public var counts: [String: Int] = [:]
    public var skippedLines = 0

    public init(counts: [String: Int] = [:], skippedLines: Int = 0) {
        self.counts = counts
        self.skippedLines = skippedLines
    }
}

public final class FavoritesModel: @unchecked Sendable {
    public private(set) var snapshot = FavoritesSnapshot()
    private let screen: SimulatedScreen<FavoritesSnapshot>

    public init(screen: SimulatedScreen<FavoritesSnapshot>) {
        self.screen = screen
    }

    @MainActor
    public func apply(_ update: FavoriteUpdate) {
        snapshot.counts[update.photoId] = update.favorites
        screen.draw(snapshot)
    }

    public func skipMalformedLine() {
        snapshot.skippedLines += 1
        screen.draw(snapshot)
    }
}
