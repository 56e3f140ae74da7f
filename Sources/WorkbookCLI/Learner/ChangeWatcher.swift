import Foundation

/// The modification times and sizes of a folder's files, to notice a save by polling.
public struct FileSnapshot: Equatable, Sendable {
    /// Path → "modification time in nanoseconds/size".
    public var stamps: [String: String]

    public init(stamps: [String: String]) { self.stamps = stamps }

    /// The files under `folder` (relative to `root`) as they are now.
    public static func take(of folder: String, root: URL) -> FileSnapshot {
        var stamps: [String: String] = [:]
        for path in FileTree.files(in: folder, root: root) {
            guard let signature = FileSignature(of: root.appendingPathComponent(path).path) else { continue }
            stamps[path] = "\(signature.seconds).\(signature.nanoseconds)/\(signature.size)"
        }
        return FileSnapshot(stamps: stamps)
    }

    /// The paths that differ from `earlier`: changed, added or removed.
    public func changes(since earlier: FileSnapshot) -> [String] {
        Set(stamps.keys).union(earlier.stamps.keys).filter { stamps[$0] != earlier.stamps[$0] }.sorted()
    }
}

/// Turns a burst of saves into one re-check: it fires once the files have stayed the same
/// for `quietPeriod` after the last change it saw.
public struct SaveDebouncer: Sendable {
    public let quietPeriod: TimeInterval
    public private(set) var lastSeen: FileSnapshot
    private var lastChange: TimeInterval?
    private var pending: Set<String> = []

    public init(watching snapshot: FileSnapshot, quietPeriod: TimeInterval = 0.2) {
        lastSeen = snapshot
        self.quietPeriod = quietPeriod
    }

    /// Feeds one poll taken at `time` (seconds). Returns the changed paths when it is time to
    /// re-check, nil otherwise.
    public mutating func observe(_ snapshot: FileSnapshot, at time: TimeInterval) -> [String]? {
        if snapshot != lastSeen {
            pending.formUnion(snapshot.changes(since: lastSeen))
            lastSeen = snapshot
            lastChange = time
            return nil
        }
        guard let lastChange, time - lastChange >= quietPeriod else { return nil }
        self.lastChange = nil
        defer { pending = [] }
        return pending.sorted()
    }
}
