import Foundation
import WorkbookCurriculum

/// Where the original exercise files come from.
public protocol ExerciseOriginals: Sendable {
    /// Said to the learner: "restored from …".
    var name: String { get }
    /// Path (relative to the package root) → content of the chapter's original Swift files,
    /// or nil if this source does not have the chapter.
    func files(of chapter: Curriculum.Chapter) -> [String: Data]?
}

/// The originals from git history, read with `git show` without touching the index.
///
/// A learner may commit their attempts, so the last commit is not necessarily the original.
/// When `Chapters/test-hashes.json` records the chapter's original exercise files, this walks
/// back through the commits that touched the chapter and takes the newest one whose files
/// match those hashes. Without recorded hashes it falls back to the last commit.
public struct GitOriginals: ExerciseOriginals {
    public let layout: PackageLayout
    /// Path → SHA-256 of the original exercise files, per chapter folder, if recorded.
    let recorded: [String: [String: String]]
    /// How far back to look before giving up on finding the recorded originals.
    static let commitsToSearch = 200

    public init(layout: PackageLayout) {
        self.layout = layout
        let hashes = (try? TestHashes.load(from: layout)) ?? nil
        recorded = hashes?.chapters.mapValues(\.exercise) ?? [:]
    }

    static let sourceName = "git history"
    public var name: String { Self.sourceName }

    public func files(of chapter: Curriculum.Chapter) -> [String: Data]? {
        guard let expected = recorded[chapter.folder], !expected.isEmpty else {
            return files(of: chapter, at: "HEAD")
        }
        let folder = PackageLayout.exerciseFolder(chapter)
        guard
            let log = Subprocess.capture(
                ["git", "rev-list", "--max-count=\(Self.commitsToSearch)", "HEAD", "--", folder], in: layout.root),
            log.status == 0
        else { return nil }
        for commit in String(decoding: log.output, as: UTF8.self).split(separator: "\n").map(String.init) {
            guard let files = files(of: chapter, at: commit) else { continue }
            let hashes = files.mapValues { SHA256.hex(Array($0)) }
            if hashes == expected { return files }
        }
        return nil
    }

    /// The chapter's Swift files as of `revision`, or nil if git does not have them.
    func files(of chapter: Curriculum.Chapter, at revision: String) -> [String: Data]? {
        let folder = PackageLayout.exerciseFolder(chapter)
        guard
            let listing = Subprocess.capture(
                ["git", "ls-tree", "-r", "--name-only", revision, "--", folder], in: layout.root),
            listing.status == 0
        else { return nil }
        var files: [String: Data] = [:]
        for path in String(decoding: listing.output, as: UTF8.self).split(separator: "\n").map(String.init)
        where path.hasSuffix(".swift") {
            guard let shown = Subprocess.capture(["git", "show", "\(revision):./\(path)"], in: layout.root),
                shown.status == 0
            else { return nil }
            files[path] = shown.output
        }
        return files.isEmpty ? nil : files
    }
}

/// The originals shipped with a student edition in `Pristine/<folder>/`.
public struct PristineOriginals: ExerciseOriginals {
    public let layout: PackageLayout
    public init(layout: PackageLayout) { self.layout = layout }

    static let sourceName = "the pristine copy in \(PackageLayout.pristineFolder)/"
    public var name: String { Self.sourceName }

    public func files(of chapter: Curriculum.Chapter) -> [String: Data]? {
        let pristine = PackageLayout.pristineFolder + "/" + chapter.folder
        var files: [String: Data] = [:]
        for path in FileTree.files(in: pristine, root: layout.root) where path.hasSuffix(".swift") {
            let target = PackageLayout.exerciseFolder(chapter) + path.dropFirst(pristine.count)
            files[target] = FileManager.default.contents(atPath: layout.url(path).path)
        }
        return files.isEmpty ? nil : files
    }
}

/// `workbook reset`: back up the learner's files, then put the originals back.
public enum ExerciseReset {
    public enum Outcome: Equatable, Sendable {
        /// The files already were the originals; nothing was touched.
        case alreadyOriginal(source: String)
        /// The learner's files are in `backup` (relative to the root) and the originals are back.
        case restored(source: String, backup: String, changed: [String])
    }

    public struct NoOriginals: Error, CustomStringConvertible {
        public let chapter: String
        public var description: String { description(in: .english) }

        /// The same, in the words of `catalog`.
        public func description(in catalog: Catalog) -> String {
            catalog("reset.noOriginals", ["chapter": chapter, "pristine": PackageLayout.pristineFolder])
        }
    }

    /// A source's name (``ExerciseOriginals/name``) in the words of `catalog`.
    public static func source(_ name: String, in catalog: Catalog) -> String {
        switch name {
        case GitOriginals.sourceName: catalog("reset.source.git")
        case PristineOriginals.sourceName: catalog("reset.source.pristine", ["pristine": PackageLayout.pristineFolder])
        default: name
        }
    }

    /// The sources to try, in order: git if the checkout has history, then the pristine copy.
    public static func sources(for layout: PackageLayout) -> [any ExerciseOriginals] {
        [GitOriginals(layout: layout), PristineOriginals(layout: layout)]
    }

    public static func reset(
        _ chapter: Curriculum.Chapter, in layout: PackageLayout,
        from sources: [any ExerciseOriginals], now: Date = Date()
    ) throws -> Outcome {
        let found = sources.lazy.compactMap { source in source.files(of: chapter).map { (source, $0) } }.first
        guard let (source, originals) = found else { throw NoOriginals(chapter: chapter.folder) }
        let current = TestHashes.exerciseFiles(chapter, in: layout)
        let changed = Set(current).union(originals.keys)
            .filter { FileManager.default.contents(atPath: layout.url($0).path) != originals[$0] }
            .sorted()
        if changed.isEmpty { return .alreadyOriginal(source: source.name) }

        let backup = try makeBackupFolder(for: chapter, in: layout, now: now)
        let chapterFolder = PackageLayout.exerciseFolder(chapter)
        for path in current {
            let destination = layout.url(backup + "/" + path.dropFirst(chapterFolder.count + 1))
            try FileManager.default.createDirectory(
                at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: layout.url(path), to: destination)
        }
        for path in current where originals[path] == nil {
            try FileManager.default.removeItem(at: layout.url(path))
        }
        for (path, data) in originals {
            let url = layout.url(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        }
        return .restored(source: source.name, backup: backup, changed: changed)
    }

    /// A new `.workbook/backups/<folder>-<yyyyMMdd-HHmmss>[-n]` folder, relative to the root.
    static func makeBackupFolder(for chapter: Curriculum.Chapter, in layout: PackageLayout, now: Date) throws -> String
    {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let base = "\(PackageLayout.stateFolder)/backups/\(chapter.folder)-\(formatter.string(from: now))"
        var candidate = base
        var counter = 2
        while FileManager.default.fileExists(atPath: layout.url(candidate).path) {
            candidate = "\(base)-\(counter)"
            counter += 1
        }
        try FileManager.default.createDirectory(at: layout.url(candidate), withIntermediateDirectories: true)
        return candidate
    }
}
