import Foundation
import WorkbookCurriculum

/// What was edited among the files a result depends on, in the learner's words, each with
/// the way to undo it: a test file edited, added or deleted, the simulated world or the test
/// instruments edited, `Package.swift` edited.
public struct TamperFindings: Equatable, Sendable {
    /// Which part of the workbook a file belongs to.
    public enum Area: Equatable, Sendable {
        /// One chapter's tests (the chapter folder).
        case tests(chapter: String)
        /// `Sources/SimulatedWorld`: what the exercises call.
        case simulatedWorld
        /// `Sources/WorkbookTesting`: what the tests measure with.
        case instruments
        /// `Package.swift`: what the tests are built against.
        case package
        /// A chapter the record does not know yet (a maintainer's matter).
        case unrecordedChapter(String)
    }

    public enum Change: String, Equatable, Sendable {
        case edited, deleted, added
    }

    public struct Finding: Equatable, Sendable {
        public var path: String
        public var area: Area
        public var change: Change
        /// The command that undoes the change, or an instruction when there is none.
        public var undo: String

        /// One sentence saying what happened, in the learner's words (in English, for reports).
        public var sentence: String { sentence(in: .english) }

        /// ``sentence`` in the words of `catalog`.
        func sentence(in catalog: Catalog) -> String {
            let values: [String: any Sendable] = [
                "path": path, "hashes": PackageLayout.hashesPath, "change": catalog("tamper.change.\(change.rawValue)"),
            ]
            return switch (area, change) {
            case (.package, .deleted): catalog("tamper.package.deleted")
            case (.package, .added): catalog("tamper.package.added", values)
            case (.package, _): catalog("tamper.package.edited")
            case (.tests(let chapter), .added):
                catalog("tamper.tests.added", values.merging(["chapter": chapter.prefix(2)]) { $1 })
            case (.tests(let chapter), _):
                catalog("tamper.tests.changed", values.merging(["chapter": chapter.prefix(2)]) { $1 })
            case (.simulatedWorld, .added): catalog("tamper.simulatedWorld.added", values)
            case (.simulatedWorld, _): catalog("tamper.simulatedWorld.changed", values)
            case (.instruments, .added): catalog("tamper.instruments.added", values)
            case (.instruments, _): catalog("tamper.instruments.changed", values)
            case (.unrecordedChapter(let chapter), _):
                catalog("tamper.unrecordedChapter", values.merging(["chapter": chapter]) { $1 })
            }
        }

        /// How `undo` is introduced, in the words of `catalog`.
        func undoLead(in catalog: Catalog) -> String {
            switch (area, change) {
            case (.package, .added), (.unrecordedChapter, _): catalog("tamper.undo.fix")
            case (_, .deleted): catalog("tamper.undo.restore")
            case (_, .added): catalog("tamper.undo.remove")
            case (_, .edited): catalog("tamper.undo.undo")
            }
        }
    }

    public var findings: [Finding]

    public init(findings: [Finding]) { self.findings = findings }

    public var isEmpty: Bool { findings.isEmpty }

    /// Classifies `report`. `undo` gives the command that brings back the recorded version of a
    /// path with a recorded hash (see ``GitHistory/restoreCommand(for:sha256:in:)``).
    public static func from(
        _ report: TamperReport, curriculum: Curriculum, strings: Strings = .english,
        undo: (_ path: String, _ sha256: String) -> String?
    ) -> TamperFindings {
        func finding(_ path: String, _ area: Area) -> Finding {
            let change: Change =
                report.deletedFiles.contains(path) ? .deleted : report.addedFiles.contains(path) ? .added : .edited
            let command: String
            if change == .added, area == .package {
                command = strings.maintainerRecords
            } else if change == .added {
                command = "rm \(path)"
            } else if let hash = report.recordedHashes[path], let found = undo(path, hash) {
                command = found
            } else {
                command = strings.copyBackFromFreshCopy(path)
            }
            return Finding(path: path, area: area, change: change, undo: command)
        }
        var findings: [Finding] = []
        let manifest = report.sharedChanges.filter(PackageLayout.fingerprintedFiles.contains)
        findings += manifest.map { finding($0, .package) }
        for path in report.sharedChanges where !manifest.contains(path) {
            let simulated = PackageLayout.simulatedWorldFolders.contains { path.hasPrefix($0 + "/") }
            findings.append(finding(path, simulated ? .simulatedWorld : .instruments))
        }
        for chapter in curriculum.chapters {
            for path in report.testChanges[chapter.folder] ?? [] {
                findings.append(finding(path, .tests(chapter: chapter.folder)))
            }
            if report.unrecordedChapters.contains(chapter.folder) {
                findings.append(
                    Finding(
                        path: PackageLayout.hashesPath, area: .unrecordedChapter(chapter.folder), change: .edited,
                        undo: strings.maintainerRecords))
            }
        }
        return TamperFindings(findings: findings)
    }

    /// The findings that concern one chapter: its own tests, and everything shared.
    public func affecting(_ folder: String) -> [Finding] {
        findings.filter { finding in
            switch finding.area {
            case .tests(let chapter), .unrecordedChapter(let chapter): chapter == folder
            case .simulatedWorld, .instruments, .package: true
            }
        }
    }

    /// The block `list` and `check` print: each finding, then how to undo it.
    public static func render(_ findings: [Finding], width: Int? = nil, strings: Strings = .english) -> String {
        guard !findings.isEmpty else { return "" }
        var text = strings.tamperHeader
        for finding in findings {
            text +=
                TextWrap.wrap(strings.tamperSentence(finding), width: width, indent: "  • ", continuation: "    ")
                + "\n"
            text += "      \(strings.tamperUndoLead(finding)) \(finding.undo)\n"
        }
        return text
    }
}

/// Finds recorded versions of files in the checkout's git history.
public enum GitHistory {
    /// How many commits that touched a file to look through.
    static let commitsToSearch = 200

    /// `git checkout <revision> -- <path>`, with the newest revision whose version of `path`
    /// has the hash `sha256`; nil without git or without such a revision. Unlike
    /// `git checkout -- <path>`, this also works after `git rm` and after a committed change.
    public static func restoreCommand(for path: String, sha256: String, in layout: PackageLayout) -> String? {
        revision(of: path, matching: sha256, in: layout).map { "git checkout \($0) -- \(path)" }
    }

    static func revision(of path: String, matching sha256: String, in layout: PackageLayout) -> String? {
        func matches(_ revision: String) -> Bool {
            guard let shown = Subprocess.capture(["git", "show", "\(revision):./\(path)"], in: layout.root),
                shown.status == 0
            else { return false }
            return SHA256.hex(Array(shown.output)) == sha256
        }
        if matches("HEAD") { return "HEAD" }
        guard
            let log = Subprocess.capture(
                ["git", "rev-list", "--max-count=\(commitsToSearch)", "HEAD", "--", path], in: layout.root),
            log.status == 0
        else { return nil }
        for commit in String(decoding: log.output, as: UTF8.self).split(separator: "\n").map(String.init)
        where matches(commit) {
            return String(commit.prefix(12))
        }
        return nil
    }
}
