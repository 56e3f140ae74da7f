import Foundation
import WorkbookCurriculum

/// Each chapter's status from the last run that built, kept in `.workbook/status.json`.
///
/// All chapters build together, so a compile error in one stops every test. Rather than
/// showing every other chapter as "no result", `list` and `check` then show what the last
/// run that built found, marked "(last known)", and "(last known, edited since)" when the
/// exercise changed after that run.
public struct LastKnownStatus: Codable, Equatable, Sendable {
    public struct Entry: Codable, Equatable, Sendable {
        public var status: ChapterStatus
        /// The fingerprint of the chapter's exercise files when the status was taken.
        public var exercise: String

        public init(status: ChapterStatus, exercise: String) {
            self.status = status
            self.exercise = exercise
        }
    }

    /// Chapter folder → its last status from a run that built.
    public var chapters: [String: Entry] = [:]

    public init(chapters: [String: Entry] = [:]) { self.chapters = chapters }

    public static let fileName = "status.json"

    /// Records the statuses of a run that built. Only verdicts are kept: done, failing, not
    /// started. A chapter the run did not reach keeps its earlier entry.
    public mutating func record(_ statuses: [String: ChapterStatus], fingerprints: [String: String]) {
        for (folder, status) in statuses {
            switch status {
            case .done, .failing, .notStarted:
                chapters[folder] = Entry(status: status, exercise: fingerprints[folder] ?? "")
            case .testsModified, .doesNotCompile, .lastKnown, .noResult:
                continue
            }
        }
    }

    /// The statuses of a run that did not build: each chapter that has no result of its own
    /// gets its last known status instead.
    public func fillIn(_ statuses: [String: ChapterStatus], fingerprints: [String: String]) -> [String: ChapterStatus] {
        statuses.reduce(into: [:]) { result, item in
            let (folder, status) = item
            if case .noResult = status, let entry = chapters[folder] {
                let editedSince = fingerprints[folder].map { $0 != entry.exercise } ?? false
                result[folder] = .lastKnown(entry.status, editedSince: editedSince)
            } else if case .noResult = status {
                result[folder] = .noResult(reason: Catalog.english("reason.notCheckedYet"))
            } else {
                result[folder] = status
            }
        }
    }

    /// A fingerprint of the chapter's exercise files as they are now.
    public static func fingerprint(of chapter: Curriculum.Chapter, in layout: PackageLayout) -> String {
        let hashes = TestHashes.hashes(of: TestHashes.exerciseFiles(chapter, in: layout), in: layout)
        return SHA256.hex(Array(hashes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)\n" }.joined().utf8))
    }

    /// Reads the state in `folder`; empty if there is none (or it is unreadable).
    public static func load(from folder: URL) -> LastKnownStatus {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(fileName)) else { return .init() }
        return (try? JSONDecoder().decode(LastKnownStatus.self, from: data)) ?? .init()
    }

    /// Writes the state into `folder`, creating it if needed.
    public func save(to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: folder.appendingPathComponent(Self.fileName), options: .atomic)
    }
}
