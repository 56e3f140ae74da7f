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

    @ObservationIgnored private var feeds: [AsyncStream<NowPlaying>.Continuation] = []

    public init(playing track: Track) {
        title = track.title
        seconds = track.seconds
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
        for feed in feeds { feed.finish() }
        feeds = []
    }

    /// What the player plays, over time, for one observer.
    public func nowPlaying() -> some AsyncSequence<NowPlaying, Never> & Sendable {
        let (stream, feed) = AsyncStream.makeStream(of: NowPlaying.self, bufferingPolicy: .bufferingNewest(1))
        guard !isShutDown else {
            feed.finish()
            return stream
        }
        feeds.append(feed)
        return stream
    }

    private var current: NowPlaying { NowPlaying(title: title, seconds: seconds) }

    private func publish() {
        for feed in feeds { feed.yield(current) }
    }
}
