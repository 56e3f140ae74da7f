import SimulatedWorld

/// How far the screen's exports have come: the photos finished so far, in the order they finished.
/// The export's tasks report to it while the screen reads it.
///
/// Fixed: sharing is the point here, so it stays a class, and a lock guards its state. Its only
/// stored property is a `let` of a `Sendable` type, so the compiler checks the `Sendable`
/// conformance: no `@unchecked` needed.
/// (`Locked` is the workbook's `Mutex` look-alike, with the same `withLock`, built on `NSLock`;
/// see "Mutex, Locked and the race check" in the README for why the solution uses it. With
/// `Mutex<[String]>` and `import Synchronization` the code is the same: the variant
/// `right-mutex-progress` is that fix.)
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
