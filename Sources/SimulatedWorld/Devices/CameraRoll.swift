/// The photo library photos are exported to. It records the ids it saved, in order.
///
/// Safe to call from anywhere: `save(_:)` is a nonisolated async function, so (without the
/// Swift 6.2 `NonisolatedNonsendingByDefault` feature) it runs on the global executor.
public final class CameraRoll: Sendable {
    private let savedIDs = Locked<[String]>([])

    public init() {}

    /// Saves the photo `id`.
    public func save(_ id: String) async {
        savedIDs.withLock { $0.append(id) }
    }

    /// The ids saved so far, in order.
    public var saved: [String] { savedIDs.withLock { $0 } }
}
