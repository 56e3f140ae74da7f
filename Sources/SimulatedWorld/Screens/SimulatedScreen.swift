/// Stands in for the view that shows a model: every ``draw(_:)`` is one redraw with the
/// model's current content.
///
/// Like UIKit or SwiftUI, a screen must only be drawn on the main actor. Instead of
/// trapping, it records for each frame whether it was drawn there, so a test can report
/// a wrong thread as a lesson. (On Linux `Thread.isMainThread` is false even on the main
/// actor, so the screen asks the main dispatch queue, which runs the main actor's jobs.)
/// Tests await ``draws`` to know that a frame has appeared, without sleeping.
public final class SimulatedScreen<Content: Sendable>: Sendable {
    /// One redraw.
    public struct Frame: Sendable {
        /// What the screen showed.
        public let content: Content
        /// Whether the redraw ran on the main actor.
        public let drawnOnMainActor: Bool
    }

    private let drawn = Locked<[Frame]>([])
    /// Counts the redraws.
    public let draws = ObservedCount()

    public init() {}

    /// Redraws the screen with `content`. Call it on the main actor.
    public func draw(_ content: Content) {
        drawn.withLock { $0.append(Frame(content: content, drawnOnMainActor: MainQueue.isCurrent)) }
        draws.increment()
    }

    /// Every frame drawn so far, in order.
    public var frames: [Frame] { drawn.withLock { $0 } }

    /// What the screen shows now, or nil before the first redraw.
    public var content: Content? { frames.last?.content }
}
