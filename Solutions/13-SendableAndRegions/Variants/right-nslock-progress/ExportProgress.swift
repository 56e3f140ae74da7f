import Foundation

/// How far the screen's exports have come: the photos finished so far, in the order they finished.
/// The export's tasks report to it while the screen reads it.
///
/// Every access to `storage` takes `lock`, which the compiler can't see: hence `@unchecked`.
public final class ExportProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []

    public init() {}

    /// The ids of the photos finished so far.
    public var finished: [String] {
        lock.withLock { storage }
    }

    /// Records that photo `id` is finished.
    public func photoFinished(_ id: String) {
        lock.withLock { storage.append(id) }
    }
}
