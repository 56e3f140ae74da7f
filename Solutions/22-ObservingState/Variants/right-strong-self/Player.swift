import Observation

/// The radio's player. It lives on the main actor, like the screens that show what it plays,
/// and it is `@Observable`: a screen reads ``title`` and ``seconds`` and is redrawn when they change.
// Observations is new in macOS 26 (Linux has it with the toolchain), hence the availability.
@available(macOS 26.0, *)
@MainActor
@Observable
public final class Player {
    /// The title of the track that plays now.
    public private(set) var title: String
    /// The length of the track that plays now, in seconds.
    public private(set) var seconds: Int
    /// Whether ``shutDown()`` was called.
    public private(set) var isShutDown = false

    public init(playing track: Track) {
        title = track.title
        seconds = track.seconds
    }

    /// Starts playing `track`.
    public func play(_ track: Track) {
        title = track.title
        seconds = track.seconds
    }

    /// Turns the player off for good. Every observation ends.
    public func shutDown() {
        isShutDown = true
    }

    /// What the player plays, over time, for one observer: the track that plays when the
    /// observer starts, then the track after each change. An observer that is busy may skip
    /// tracks, but it must never see a title with another track's length, and it must end up
    /// seeing the track that plays now. The sequence ends when the player shuts down.
    public func nowPlaying() -> some AsyncSequence<NowPlaying, Never> & Sendable {
        // Observations (SE-0475) runs the closure on the main actor, where the player lives:
        // once when an observer first asks, then once per transaction, at the next suspension
        // after the first change. Both properties are read in one go, so the pair is never torn.
        Observations.untilFinished {
            self.isShutDown ? .finish : .next(NowPlaying(title: self.title, seconds: self.seconds))
        }
    }
}
