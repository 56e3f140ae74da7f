import SimulatedWorld

/// One line of the live favorites feed: `{"photoId":"123","favorites":43}`.
public struct FavoriteUpdate: Sendable, Hashable, Codable {
    public let photoId: String
    public let favorites: Int

    public init(photoId: String, favorites: Int) {
        self.photoId = photoId
        self.favorites = favorites
    }
}

/// What the favorites screen shows.
public struct FavoritesSnapshot: Sendable, Hashable {
    /// The latest favorite count of each photo.
    public var counts: [String: Int] = [:]
    /// How many lines of the feed could not be read.
    public var skippedLines = 0

    public init(counts: [String: Int] = [:], skippedLines: Int = 0) {
        self.counts = counts
        self.skippedLines = skippedLines
    }
}

/// The favorites screen's model. The screen reads it, and redraws after every change.
///
/// Exercise: `@unchecked Sendable` silenced the compiler, so any thread may call it.
/// But a screen may only be drawn on the main actor.
public final class FavoritesModel: @unchecked Sendable {
    public private(set) var snapshot = FavoritesSnapshot()
    private let screen: SimulatedScreen<FavoritesSnapshot>

    public init(screen: SimulatedScreen<FavoritesSnapshot>) {
        self.screen = screen
    }

    /// Shows `update`'s count for its photo.
    public func apply(_ update: FavoriteUpdate) {
        snapshot.counts[update.photoId] = update.favorites
        screen.draw(snapshot)
    }

    /// Counts one line of the feed that could not be read.
    public func skipMalformedLine() {
        snapshot.skippedLines += 1
        screen.draw(snapshot)
    }
}
