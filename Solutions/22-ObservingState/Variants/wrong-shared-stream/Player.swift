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

    @ObservationIgnored private let stream: AsyncStream<NowPlaying>
    @ObservationIgnored private let feed: AsyncStream<NowPlaying>.Continuation

    public init(playing track: Track) {
        title = track.title
        seconds = track.seconds
        (stream, feed) = AsyncStream.makeStream(of: NowPlaying.self, bufferingPolicy: .bufferingNewest(1))
        feed.yield(NowPlaying(track))
    }

    /// Starts playing `track`.
    public func play(_ track: Track) {
        title = track.title
        seconds = track.seconds
        publish()
    }

    /// Turns the player off for good. Every observation ends.
    public func shutDown() {
        isShutDown = true
        feed.finish()
    }

    /// What the player plays, over time, for one observer.
    public func nowPlaying() -> some AsyncSequence<NowPlaying, Never> & Sendable {
        stream
    }

    private func publish() {
        feed.yield(NowPlaying(title: title, seconds: seconds))
    }
}
