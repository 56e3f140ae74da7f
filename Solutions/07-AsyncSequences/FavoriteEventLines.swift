import Foundation
import SimulatedWorld

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The live favorites feed (`GET /favorites/live`) as an async sequence of lines, built on
/// the session's delegate-style line feed.
public func favoriteEventLines(
    from baseURL: URL, using session: SimulatedURLSession
) -> AsyncThrowingStream<String, any Error> {
    AsyncThrowingStream { continuation in
        let request = URLRequest(url: baseURL.appendingPathComponent("favorites/live"))
        let feed = session.lineFeedTask(with: request, delegate: LineForwarder(continuation: continuation))
        // The consumer stopped (break, cancel, or the stream was dropped): stop the feed too.
        // After a normal end this does nothing, the feed is already complete.
        continuation.onTermination = { _ in feed.cancel() }
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
        // Every feed ends, so every stream must finish: normally, or with the feed's error.
        continuation.finish(throwing: error)
    }
}
