/// A track of the radio station's catalogue.
public struct Track: Sendable, Hashable, CustomStringConvertible {
    /// The track's title.
    public let title: String
    /// The track's length in seconds. No two tracks of ``catalogue`` have the same length, so a
    /// title and a length belong together only if they come from the same track.
    public let seconds: Int

    public init(title: String, seconds: Int) {
        self.title = title
        self.seconds = seconds
    }

    public var description: String { "\"\(title)\" (\(seconds) s)" }

    /// The station's tracks.
    public static let catalogue: [Track] = [
        Track(title: "Station Jingle", seconds: 12),
        Track(title: "Morning Ride", seconds: 201),
        Track(title: "Night Bus", seconds: 244),
        Track(title: "Tidal", seconds: 187),
        Track(title: "Paper Planes", seconds: 233),
        Track(title: "Long Way Home", seconds: 305),
    ]
}

/// What an observer of the ``Player`` sees at one moment: a title and a length, which must
/// belong to the same track.
public struct NowPlaying: Sendable, Hashable, CustomStringConvertible {
    public let title: String
    public let seconds: Int

    public init(title: String, seconds: Int) {
        self.title = title
        self.seconds = seconds
    }

    /// What an observer sees while `track` plays.
    public init(_ track: Track) { self.init(title: track.title, seconds: track.seconds) }

    public var description: String { "\"\(title)\" (\(seconds) s)" }
}
