import Foundation
import WorkbookCurriculum

/// The files a verdict is about: each chapter's exercise and test files, with their
/// modification times, sizes and contents. Taken before and after every run; a run during
/// which they changed is not used.
public struct RunFingerprint: Equatable, Sendable {
    /// Path (relative to the root) → "modification time in nanoseconds/size".
    public var stamps: FileSnapshot
    /// Path → SHA-256 of the contents (a save within the clock's resolution that keeps the
    /// size still changes this).
    public var hashes: [String: String]

    public init(stamps: FileSnapshot = FileSnapshot(stamps: [:]), hashes: [String: String] = [:]) {
        self.stamps = stamps
        self.hashes = hashes
    }

    /// The folders of `chapters`: exercise and tests.
    public static func folders(of chapters: [Curriculum.Chapter]) -> [String] {
        chapters.flatMap { [PackageLayout.exerciseFolder($0), PackageLayout.testFolder($0)] }
    }

    /// The files of `chapters` as they are now.
    public static func take(of chapters: [Curriculum.Chapter], root: URL) -> RunFingerprint {
        var fingerprint = RunFingerprint()
        for folder in folders(of: chapters) {
            fingerprint.stamps.stamps.merge(FileSnapshot.take(of: folder, root: root).stamps) { $1 }
            for path in FileTree.files(in: folder, root: root) {
                guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(path).path)
                else { continue }
                fingerprint.hashes[path] = SHA256.hex(Array(data))
            }
        }
        return fingerprint
    }

    /// The paths that differ from `earlier`: changed, added or removed.
    public func changes(since earlier: RunFingerprint) -> [String] {
        let stampChanges = stamps.changes(since: earlier.stamps)
        let hashChanges = Set(hashes.keys).union(earlier.hashes.keys).filter { hashes[$0] != earlier.hashes[$0] }
        return Set(stampChanges).union(hashChanges).sorted()
    }

    /// The modification times and sizes of the files under `folder`, as `watch` polls them.
    public func snapshot(of folder: String) -> FileSnapshot {
        FileSnapshot(stamps: stamps.stamps.filter { $0.key.hasPrefix(folder + "/") })
    }

    /// The part of this fingerprint about `chapter`.
    public func restricted(to chapter: Curriculum.Chapter) -> RunFingerprint {
        let prefixes = Self.folders(of: [chapter]).map { $0 + "/" }
        let keep = { (path: String) in prefixes.contains { path.hasPrefix($0) } }
        return RunFingerprint(
            stamps: FileSnapshot(stamps: stamps.stamps.filter { keep($0.key) }),
            hashes: hashes.filter { keep($0.key) })
    }

    /// Makes sure the next build compiles the modules whose files are in `paths` again.
    ///
    /// A save that lands while the compiler runs can leave a binary built from the file
    /// before the save, which the build system then takes for up to date (it records the
    /// file as it was after the save). Removing the module's objects and its incremental
    /// build records (`.o`, `.swiftdeps`, `.priors`; the build plan's files stay) makes the
    /// next build compile the whole module from the files on disk. Where those are not
    /// found, the files are touched instead (which an open editor may notice).
    public static func invalidateBuild(
        of paths: [String], chapters: [Curriculum.Chapter], in layout: PackageLayout, scratchPath: String
    ) {
        let fileManager = FileManager.default
        for chapter in chapters {
            for (folder, module) in [
                (PackageLayout.exerciseFolder(chapter), chapter.module),
                (PackageLayout.testFolder(chapter), chapter.testTarget),
            ] {
                let changed = paths.filter { $0.hasPrefix(folder + "/") }
                guard !changed.isEmpty else { continue }
                let intermediates = layout.url("\(scratchPath)/debug/\(module).build")
                let records = ((try? fileManager.contentsOfDirectory(atPath: intermediates.path)) ?? []).filter {
                    ["o", "swiftdeps", "priors"].contains(($0 as NSString).pathExtension)
                }
                if !records.isEmpty {
                    for name in records { try? fileManager.removeItem(at: intermediates.appendingPathComponent(name)) }
                } else {
                    for path in changed {
                        try? fileManager.setAttributes(
                            [.modificationDate: Date()], ofItemAtPath: layout.url(path).path)
                    }
                }
            }
        }
    }
}
