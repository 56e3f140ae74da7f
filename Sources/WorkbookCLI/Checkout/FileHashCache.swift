import Foundation

/// The SHA-256 of the files this process has hashed, reused while a file keeps its size,
/// modification time and inode. A check hashes every test and exercise file to find edits,
/// once for the statuses and once for the words about an edit, and `watch` does it again
/// after every save: in a debug build of the tool, the hashing was the largest part of a
/// check's own time.
enum FileHashCache {
    /// What tells one version of a file from another, short of reading it.
    private struct Identity: Equatable, Sendable {
        var size: Int
        var modified: Date
        var inode: Int
    }

    /// The hashes seen so far, by path, behind an `NSLock` (not `Mutex`: on Linux, Thread
    /// Sanitizer can't see `Mutex`'s futex and reports races that aren't there).
    private final class Known: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String: (identity: Identity, hex: String)] = [:]

        subscript(path: String) -> (identity: Identity, hex: String)? {
            get { lock.withLock { entries[path] } }
            set { lock.withLock { entries[path] = newValue } }
        }
    }

    private static let known = Known()

    /// The SHA-256 of the file at `url` as 64 lowercase hex digits (of no bytes if it can't be read).
    static func hex(of url: URL) -> String {
        let path = url.path
        let identity = identity(of: path)
        if let identity, let seen = known[path], seen.identity == identity { return seen.hex }
        let hex = SHA256.hex([UInt8]((try? Data(contentsOf: url)) ?? Data()))
        if let identity { known[path] = (identity, hex) }
        return hex
    }

    private static func identity(of path: String) -> Identity? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = (attributes[.size] as? NSNumber)?.intValue,
            let modified = attributes[.modificationDate] as? Date,
            let inode = (attributes[.systemFileNumber] as? NSNumber)?.intValue
        else { return nil }
        return Identity(size: size, modified: modified, inode: inode)
    }
}
