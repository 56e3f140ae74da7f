import Foundation
import SimulatedWorld

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

public func favoriteEventLines(
    from baseURL: URL, using session: SimulatedURLSession
) -> AsyncThrowingStream<String, any Error> {
    let (lines, continuation) = AsyncThrowingStream.makeStream(of: String.self, throwing: (any Error).self)
    let request = URLRequest(url: baseURL.appendingPathComponent("favorites/live"))
    let feed = session.lineFeedTask(with: request, delegate: LineForwarder(continuation: continuation))
    continuation.onTermination = { termination in
        switch termination {
        case .cancelled: feed.cancel()
        case .finished: break  // the feed ended first: nothing to stop
        @unknown default: feed.cancel()
        }
    }
    feed.resume()
    return lines
}

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
            continuation.finish(throwing: error)
        } else {
            continuation.finish()
        }
    }
}
