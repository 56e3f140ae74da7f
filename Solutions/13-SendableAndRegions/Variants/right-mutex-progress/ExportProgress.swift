import Synchronization

/// How far the screen's exports have come: the photos finished so far, in the order they finished.
/// The export's tasks report to it while the screen reads it.
///
/// Sharing is the point here, so it stays a class, and a `Mutex` guards its state, as the
/// reading shows. Its only stored property is a `let` of a `Sendable` type, so the compiler
/// checks the `Sendable` conformance: no `@unchecked` needed.
public final class ExportProgress: Sendable {
    private let state = Mutex<[String]>([])

    public init() {}

    /// The ids of the photos finished so far.
    public var finished: [String] { state.withLock { $0 } }

    /// Records that photo `id` is finished.
    public func photoFinished(_ id: String) {
        state.withLock { $0.append(id) }
    }
}
