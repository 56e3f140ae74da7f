import Foundation
import SimulatedWorld

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

public func favoriteEventLines(
    from baseURL: URL, using session: SimulatedURLSession
) -> AsyncThrowingStream<String, any Error> {
    AsyncThrowingStream { continuation in
        let request = URLRequest(url: baseURL.appendingPathComponent("favorites/live"))
        let feed = session.lineFeedTask(with: request, delegate: LineForwarder(continuation: continuation))
        feed.resume()
    }
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
        continuation.finish(throwing: error)
    }
}
