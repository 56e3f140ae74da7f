/// How far the screen's exports have come: the photos finished so far, in the order they finished.
/// The export's tasks report to it while the screen reads it.
public final class ExportProgress: @unchecked Sendable {
    /// The ids of the photos finished so far.
    public private(set) var finished: [String] = []

    public init() {}

    /// Records that photo `id` is finished.
    public func photoFinished(_ id: String) {
        finished.append(id)
    }
}
