import Foundation
import WorkbookCurriculum

/// The recorded SHA-256 hashes of each chapter's test files and exercise files, of the
/// shared test instruments, and of `Package.swift`: `Chapters/test-hashes.json`.
///
/// Tests that were edited no longer prove anything, so a chapter whose tests differ from
/// the record is "tests modified", never "done", and `verify` fails. The exercise hashes
/// tell an untouched chapter ("not started") from one being worked on. The record is
/// computed from the files, so a new chapter only needs `workbook hashes --update`.
public struct TestHashes: Codable, Equatable, Sendable {
    /// Path → hash of every shared instrument file, and of `Package.swift` (which decides what
    /// the tests are built against).
    public var shared: [String: String]
    /// Chapter folder → its recorded files.
    public var chapters: [String: ChapterFiles]
    /// What this file is, for a reader who opens it.
    public var about: String = Self.aboutText

    public struct ChapterFiles: Codable, Equatable, Sendable {
        /// Path → hash of each file under `Tests/<test target>/`.
        public var tests: [String: String]
        /// Path → hash of each original exercise file under `Chapters/<folder>/`.
        public var exercise: [String: String]
    }

    public static let aboutText =
        "SHA-256 of each chapter's tests and original exercise, of the shared test instruments and of Package.swift. "
        + "`swift run workbook` marks a chapter 'tests modified' when its tests differ from these; "
        + "maintainers refresh them with `swift run workbook hashes --update`."

    /// Hashes the files as they are now.
    public static func compute(for curriculum: Curriculum, in layout: PackageLayout) -> TestHashes {
        var shared: [String: String] = [:]
        for folder in PackageLayout.sharedInstrumentFolders {
            shared.merge(hashes(of: FileTree.files(in: folder, root: layout.root), in: layout)) { $1 }
        }
        let files = PackageLayout.fingerprintedFiles.filter {
            FileManager.default.fileExists(atPath: layout.url($0).path)
        }
        shared.merge(hashes(of: files, in: layout)) { $1 }
        var chapters: [String: ChapterFiles] = [:]
        for chapter in curriculum.chapters {
            chapters[chapter.folder] = ChapterFiles(
                tests: hashes(of: FileTree.files(in: PackageLayout.testFolder(chapter), root: layout.root), in: layout),
                exercise: hashes(of: exerciseFiles(chapter, in: layout), in: layout))
        }
        return TestHashes(shared: shared, chapters: chapters)
    }

    /// Hashes the files on another thread, for ``FileHashCache`` to hold: a check starts this
    /// before its build and test run, which leave the tool waiting, so that comparing with the
    /// record afterwards costs next to nothing.
    public static func computeAhead(for curriculum: Curriculum, in layout: PackageLayout) {
        DispatchQueue.global(qos: .userInitiated).async { _ = compute(for: curriculum, in: layout) }
    }

    /// The chapter's Swift files under `Chapters/<folder>/` (the README is reading, not exercise).
    public static func exerciseFiles(_ chapter: Curriculum.Chapter, in layout: PackageLayout) -> [String] {
        FileTree.files(in: PackageLayout.exerciseFolder(chapter), root: layout.root).filter { $0.hasSuffix(".swift") }
    }

    static func hashes(of paths: [String], in layout: PackageLayout) -> [String: String] {
        var result: [String: String] = [:]
        for path in paths {
            result[path] = FileHashCache.hex(of: layout.url(path))
        }
        return result
    }

    /// Reads the record of the checkout, or nil if it has none.
    public static func load(from layout: PackageLayout) throws -> TestHashes? {
        let url = layout.url(PackageLayout.hashesPath)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try JSONDecoder().decode(TestHashes.self, from: Data(contentsOf: url))
    }

    /// Writes the record, sorted and pretty-printed so that its diffs are readable.
    public func write(to layout: PackageLayout) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(contentsOf: Array("\n".utf8))
        try data.write(to: layout.url(PackageLayout.hashesPath), options: .atomic)
    }

    /// How the files now differ from this record.
    public func compare(with current: TestHashes) -> TamperReport {
        var report = TamperReport(sharedChanges: Self.differences(recorded: shared, current: current.shared))
        report.note(recorded: shared, current: current.shared)
        for (folder, files) in current.chapters {
            guard let recorded = chapters[folder] else {
                report.unrecordedChapters.insert(folder)
                continue
            }
            report.note(recorded: recorded.tests, current: files.tests)
            let testChanges = Self.differences(recorded: recorded.tests, current: files.tests)
            if !testChanges.isEmpty { report.testChanges[folder] = testChanges }
            if Self.differences(recorded: recorded.exercise, current: files.exercise).isEmpty {
                report.untouchedExercises.insert(folder)
            }
        }
        return report
    }

    /// The paths that were changed, added or removed, sorted.
    static func differences(recorded: [String: String], current: [String: String]) -> [String] {
        Set(recorded.keys).union(current.keys).filter { recorded[$0] != current[$0] }.sorted()
    }
}

/// How a checkout's tests and exercises differ from the recorded hashes.
public struct TamperReport: Equatable, Sendable {
    /// Shared instrument files that were changed, added or removed: every chapter is affected.
    public var sharedChanges: [String] = []
    /// Chapter folder → its test files that were changed, added or removed.
    public var testChanges: [String: [String]] = [:]
    /// Chapters the record does not know yet (added since the last `hashes --update`).
    public var unrecordedChapters: Set<String> = []
    /// Chapters whose exercise files are exactly the recorded originals.
    public var untouchedExercises: Set<String> = []
    /// Recorded test or shared files that are gone (deleted, or `git rm`-ed).
    public var deletedFiles: Set<String> = []
    /// Test or shared files that the record does not know (added).
    public var addedFiles: Set<String> = []
    /// Path → the recorded hash of each changed or deleted file, to find the original again.
    public var recordedHashes: [String: String] = [:]

    public init(sharedChanges: [String] = []) { self.sharedChanges = sharedChanges }

    /// The modified test or instrument files that make `folder`'s results untrustworthy,
    /// or an explanation when the chapter has no record; empty when its tests are intact.
    public func modifiedFiles(of folder: String) -> [String] {
        if unrecordedChapters.contains(folder) { return ["(no recorded hashes for \(folder))"] }
        return sharedChanges + (testChanges[folder] ?? [])
    }

    /// Notes which of the differing files were deleted or added, and their recorded hashes.
    mutating func note(recorded: [String: String], current: [String: String]) {
        for path in TestHashes.differences(recorded: recorded, current: current) {
            if current[path] == nil { deletedFiles.insert(path) }
            if recorded[path] == nil { addedFiles.insert(path) }
            recordedHashes[path] = recorded[path]
        }
    }

    /// Whether every chapter's tests and the shared instruments match the record.
    public var isClean: Bool { sharedChanges.isEmpty && testChanges.isEmpty && unrecordedChapters.isEmpty }

    /// One line per problem, for `hashes` and `verify`.
    public var problems: [String] {
        sharedChanges.map { "\($0 == "Package.swift" ? "package manifest" : "shared instrument") modified: \($0)" }
            + testChanges.keys.sorted().flatMap { folder in
                testChanges[folder]!.map { "\(folder): test file modified: \($0)" }
            }
            + unrecordedChapters.sorted().map { "\($0): no recorded hashes (run `swift run workbook hashes --update`)" }
    }
}
