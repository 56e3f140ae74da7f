import SimulatedWorld

/// How far the screen's exports have come: the photos finished so far, in the order they finished.
/// The export's tasks report to it while the screen reads it.
public final class ExportProgress: Sendable {
    private let state = Locked<[String]>([])

    public init() {}

    /// The ids of the photos finished so far.
    public var finished: [String] { state.withLock { $0 } }

    /// Records that photo `id` is finished.
    public func photoFinished(_ id: String) {
        state.withLock { $0.append(id) }
    }
}
