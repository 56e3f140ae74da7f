import Foundation
import SimulatedWorld

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The live favorites feed (`GET /favorites/live`) as an async sequence of lines, built on
/// the session's delegate-style line feed.
///
/// Exercise: the lines come through. Now see whether the sequence ever ends, what happens
/// to an error, and what the feed does after the consumer stops listening.
public func favoriteEventLines(
    from baseURL: URL, using session: SimulatedURLSession
) -> AsyncThrowingStream<String, any Error> {
    AsyncThrowingStream { continuation in
        let request = URLRequest(url: baseURL.appendingPathComponent("favorites/live"))
        let feed = session.lineFeedTask(with: request, delegate: LineForwarder(continuation: continuation))
        feed.resume()
    }
}

/// Passes the feed's events on to the stream.
final class LineForwarder: LineFeedDelegate {
    private let continuation: AsyncThrowingStream<String, any Error>.Continuation

    init(continuation: AsyncThrowingStream<String, any Error>.Continuation) {
        self.continuation = continuation
    }

    func lineFeed(_ task: SimulatedLineFeedTask, didReceive line: String) {
        continuation.yield(line)
    }

    func lineFeed(_ task: SimulatedLineFeedTask, didCompleteWithError error: (any Error)?) {
        if let error {
            print("Favorites feed failed: \(error)")
        }
    }
}
