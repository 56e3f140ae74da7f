import Foundation
import WorkbookCurriculum

/// `workbook report`: one learner run as a document a CI service or a classroom tool can read.
///
/// The JSON form is the whole report; JUnit and the Markdown table are rendered from it, so
/// `report --from report.json` gives them without running the tests again. README.md ("The
/// report's JSON schema") documents every key; `WorkbookReportTests` keeps the two in step. Change
/// a key's name or meaning only with a new ``schemaVersion``; adding a key is compatible.
public struct WorkbookReport: Codable, Equatable, Sendable {
    /// The version of this schema. Readers check it before anything else.
    public static let currentSchemaVersion = 1
    /// What this document is, for a reader who finds it lying around.
    public static let kind = "concurrency-workbook-report"

    public var schemaVersion: Int
    public var kind: String
    public var workbook: WorkbookInfo
    /// The student's name (their checkout's folder) in a report `grade` writes; nil otherwise.
    public var student: String?
    /// The first line of `swift --version`, or nil if it could not be read.
    public var toolchain: String?
    /// When the report was made: ISO 8601, UTC.
    public var generatedAt: String
    public var run: RunInfo
    public var summary: Summary
    /// Every edit to a file the results depend on (tests, instruments, `Package.swift`).
    public var tamperFindings: [Finding]
    /// Every chapter of the curriculum, in order.
    public var chapters: [Chapter]

    /// Which workbook was run.
    public struct WorkbookInfo: Codable, Equatable, Sendable {
        public var title: String
        /// The checkout's git commit (read from `.git`, without running git), or nil.
        public var commit: String?
        /// SHA-256 of `Chapters/test-hashes.json`, the record the tests were compared with: the
        /// same value means the same tests. Nil without a record.
        public var testHashes: String?

        public init(title: String, commit: String?, testHashes: String?) {
            self.title = title
            self.commit = commit
            self.testHashes = testHashes
        }
    }

    /// How the test run ended.
    public struct RunInfo: Codable, Equatable, Sendable {
        /// `finished`, `buildFailed`, `timeLimit`, `memoryLimit`, `crashed` or `endedEarly`.
        public var ending: String
        /// What the tool said about a run that did not finish, or nil.
        public var message: String?

        public init(ending: String, message: String?) {
            self.ending = ending
            self.message = message
        }
    }

    public struct Summary: Codable, Equatable, Sendable {
        public var chapterCount: Int
        public var chaptersDone: Int
        /// The folder of the first chapter not done, or nil when every chapter is done.
        public var currentChapter: String?
        /// Whether any file the results depend on differs from the record.
        public var tampered: Bool

        public init(chapterCount: Int, chaptersDone: Int, currentChapter: String?, tampered: Bool) {
            self.chapterCount = chapterCount
            self.chaptersDone = chaptersDone
            self.currentChapter = currentChapter
            self.tampered = tampered
        }
    }

    /// One edit to a file the results depend on.
    public struct Finding: Codable, Equatable, Sendable {
        public var path: String
        /// `tests`, `simulatedWorld`, `instruments`, `package` or `unrecordedChapter`.
        public var area: String
        /// The chapter folder, for `tests` and `unrecordedChapter`; nil otherwise.
        public var chapter: String?
        /// `edited`, `deleted` or `added`.
        public var change: String
        /// The sentence the tool shows the learner.
        public var message: String
    }

    public struct Chapter: Codable, Equatable, Sendable {
        public var number: Int
        public var folder: String
        public var title: String
        /// `done`, `failing`, `notStarted`, `testsModified`, `doesNotCompile` or `noResult`.
        public var status: String
        /// The status as the chapter table shows it, for example `failing 2 of 4`.
        public var label: String
        /// Why there is no result (for `noResult`), or nil.
        public var reason: String?
        public var tests: Counts
        /// The lessons of the failing tests (a test with several lessons has several entries).
        public var failingLessons: [Lesson]
        /// The compiler's errors in the chapter's files (for `doesNotCompile`).
        public var compileErrors: [String]
        /// The paths of the edits that void this chapter's result.
        public var tamperedFiles: [String]
        /// Every test of the chapter, in the order they were declared.
        public var testResults: [TestResult]
    }

    public struct Counts: Codable, Equatable, Sendable {
        public var total: Int
        public var passed: Int
        public var failed: Int
        /// Skipped, or never reached because the run stopped.
        public var notRun: Int

        public init(total: Int, passed: Int, failed: Int, notRun: Int) {
            self.total = total
            self.passed = passed
            self.failed = failed
            self.notRun = notRun
        }
    }

    public struct Lesson: Codable, Equatable, Sendable {
        /// The test's name (its `@Test("…")` text).
        public var test: String
        /// What went wrong, in the learner's words (the README pointer taken out).
        public var lesson: String
        /// The README section to read, or nil.
        public var section: String?
        /// The README that has the section, or nil.
        public var reading: String?
    }

    public struct TestResult: Codable, Equatable, Sendable {
        public var name: String
        /// The Swift Testing ID.
        public var id: String
        /// `passed`, `failed`, `skipped` or `notRun`.
        public var result: String
        /// The failure messages, as the tests wrote them.
        public var messages: [String]
    }
}

// Optional values are written as `null`, never left out, so that every report has every key.
extension WorkbookReport {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(schemaVersion, forKey: .schemaVersion)
        try container.encode(kind, forKey: .kind)
        try container.encode(workbook, forKey: .workbook)
        try container.encode(student, forKey: .student)
        try container.encode(toolchain, forKey: .toolchain)
        try container.encode(generatedAt, forKey: .generatedAt)
        try container.encode(run, forKey: .run)
        try container.encode(summary, forKey: .summary)
        try container.encode(tamperFindings, forKey: .tamperFindings)
        try container.encode(chapters, forKey: .chapters)
    }
}

extension WorkbookReport.WorkbookInfo {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(commit, forKey: .commit)
        try container.encode(testHashes, forKey: .testHashes)
    }
}

extension WorkbookReport.RunInfo {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ending, forKey: .ending)
        try container.encode(message, forKey: .message)
    }
}

extension WorkbookReport.Summary {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(chapterCount, forKey: .chapterCount)
        try container.encode(chaptersDone, forKey: .chaptersDone)
        try container.encode(currentChapter, forKey: .currentChapter)
        try container.encode(tampered, forKey: .tampered)
    }
}

extension WorkbookReport.Finding {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(area, forKey: .area)
        try container.encode(chapter, forKey: .chapter)
        try container.encode(change, forKey: .change)
        try container.encode(message, forKey: .message)
    }
}

extension WorkbookReport.Chapter {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(number, forKey: .number)
        try container.encode(folder, forKey: .folder)
        try container.encode(title, forKey: .title)
        try container.encode(status, forKey: .status)
        try container.encode(label, forKey: .label)
        try container.encode(reason, forKey: .reason)
        try container.encode(tests, forKey: .tests)
        try container.encode(failingLessons, forKey: .failingLessons)
        try container.encode(compileErrors, forKey: .compileErrors)
        try container.encode(tamperedFiles, forKey: .tamperedFiles)
        try container.encode(testResults, forKey: .testResults)
    }
}

extension WorkbookReport.Lesson {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(test, forKey: .test)
        try container.encode(lesson, forKey: .lesson)
        try container.encode(section, forKey: .section)
        try container.encode(reading, forKey: .reading)
    }
}

extension WorkbookReport {
    /// The report of one learner run.
    /// - Parameters:
    ///   - statuses: each chapter's status from `run` (``LearnerRun/statuses(of:curriculum:tamper:)``).
    ///   - run: the run the statuses come from.
    ///   - tamper: the edits that void results, or nil without a record.
    public static func make(
        curriculum: Curriculum, statuses: [String: ChapterStatus], run: LearnerRun, tamper: TamperFindings?,
        workbook: WorkbookInfo, toolchain: String?, student: String? = nil, generatedAt: Date = Date()
    ) -> WorkbookReport {
        let findings = (tamper?.findings ?? []).map(Finding.init)
        let chapters = curriculum.chapters.map { chapter in
            let status = statuses[chapter.folder] ?? .noResult(reason: Catalog.english("reason.noTestsRan"))
            // A chapter that does not compile has no results (`grade` tests its originals in its place).
            let compiled: Bool
            if case .doesNotCompile = status { compiled = false } else { compiled = true }
            return Chapter.make(
                chapter, status: status,
                tests: compiled ? run.run?.tests(inModule: chapter.testTarget) ?? [] : [],
                tamper: tamper?.affecting(chapter.folder).map(\.path) ?? [])
        }
        let done = chapters.filter { $0.status == "done" }
        return WorkbookReport(
            schemaVersion: currentSchemaVersion, kind: kind, workbook: workbook, student: student,
            toolchain: toolchain,
            generatedAt: timestamp(generatedAt), run: RunInfo.make(run, curriculum: curriculum),
            summary: Summary(
                chapterCount: chapters.count, chaptersDone: done.count,
                currentChapter: chapters.first { $0.status != "done" }?.folder, tampered: !findings.isEmpty),
            tamperFindings: findings, chapters: chapters)
    }

    /// ISO 8601 in UTC, to the second.
    public static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    /// The JSON text: pretty-printed with sorted keys, so that two reports diff line by line.
    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }

    /// Reads a report written by ``json()``, refusing another schema version.
    public static func read(_ data: Data) throws -> WorkbookReport {
        struct Version: Decodable { var schemaVersion: Int? }
        let version = try JSONDecoder().decode(Version.self, from: data).schemaVersion
        guard version == currentSchemaVersion else {
            throw UsageError(
                "the report has schema version \(version.map(String.init) ?? "none"); this workbook reads version "
                    + "\(currentSchemaVersion)")
        }
        return try JSONDecoder().decode(WorkbookReport.self, from: data)
    }

    /// The chapter table, for a CI job summary (GitHub's `$GITHUB_STEP_SUMMARY`) or a pull request.
    public func markdown() -> String {
        var text = "## \(workbook.title): \(summary.chaptersDone)/\(summary.chapterCount) chapters done\n\n"
        text += "| # | Chapter | Status | Tests passed |\n| --- | --- | --- | --- |\n"
        for chapter in chapters {
            let title = chapter.title.prefix { $0 != ":" }
            let passed = chapter.tests.total == 0 ? "—" : "\(chapter.tests.passed)/\(chapter.tests.total)"
            text += "| \(String(format: "%02d", chapter.number)) | \(Self.cell(String(title))) | "
            text += "\(Self.cell(chapter.label)) | \(passed) |\n"
        }
        text += "\n"
        if let current = chapters.first(where: { $0.folder == summary.currentChapter }) {
            text += "Current chapter: **\(Self.cell(current.folder))** (`swift run workbook check "
            text += "\(String(format: "%02d", current.number))`)\n\n"
        } else {
            text += "Every chapter is done.\n\n"
        }
        if !tamperFindings.isEmpty {
            text += "**Files the results depend on were changed**, so the chapters they affect can't be done:\n\n"
            text += tamperFindings.map { "- \(Self.cell($0.message))\n" }.joined() + "\n"
        }
        if run.ending != "finished", let message = run.message {
            text += "The test run did not finish (\(run.ending)):\n\n```\n\(message.trimmingTrailingNewlines())\n```\n"
        }
        return text
    }

    /// Text made safe for one Markdown table cell.
    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}

extension WorkbookReport.Finding {
    init(_ finding: TamperFindings.Finding) {
        path = finding.path
        change = finding.change.rawValue
        message = finding.sentence
        switch finding.area {
        case .tests(let chapter): (area, self.chapter) = ("tests", chapter)
        case .simulatedWorld: (area, chapter) = ("simulatedWorld", nil)
        case .instruments: (area, chapter) = ("instruments", nil)
        case .package: (area, chapter) = ("package", nil)
        case .unrecordedChapter(let chapter): (area, self.chapter) = ("unrecordedChapter", chapter)
        }
    }
}

extension WorkbookReport.RunInfo {
    static func make(_ run: LearnerRun, curriculum: Curriculum) -> Self {
        if run.run == nil {
            let failure = run.buildFailure(curriculum: curriculum)
            return Self(ending: "buildFailed", message: failure?.summary() ?? run.troubleReport)
        }
        let ending: String
        switch run.ending {
        case .finished: ending = "finished"
        case .timeLimit: ending = "timeLimit"
        case .memoryLimit: ending = "memoryLimit"
        case .crashed: ending = "crashed"
        case .endedEarly: ending = "endedEarly"
        }
        return Self(ending: ending, message: run.troubleReport)
    }
}

extension WorkbookReport.Chapter {
    static func make(
        _ chapter: Curriculum.Chapter, status: ChapterStatus, tests: [TestRun.TestResult], tamper: [String]
    ) -> Self {
        let results = tests.map { test in
            let result: String
            if test.failed {
                result = "failed"
            } else if test.ended {
                result = test.started ? "passed" : "skipped"
            } else {
                result = "notRun"
            }
            return WorkbookReport.TestResult(
                name: test.displayName, id: test.id, result: result, messages: LessonText.distinct(test.issues))
        }
        var lessons: [WorkbookReport.Lesson] = []
        for test in tests where test.failed {
            let messages = test.issues.isEmpty ? ["the test process stopped inside this test"] : test.issues
            for message in LessonText.distinct(messages) {
                let lesson = LessonText(message)
                lessons.append(
                    WorkbookReport.Lesson(
                        test: test.displayName, lesson: lesson.text, section: lesson.section,
                        reading: lesson.section == nil ? nil : (lesson.reading ?? chapter.readmePath)))
            }
        }
        var reason: String?
        var errors: [String] = []
        var kept = status
        if case .lastKnown(let inner, _) = status { kept = inner }
        switch kept {
        case .noResult(let why): reason = why
        case .doesNotCompile(let compileErrors): errors = compileErrors
        default: break
        }
        return Self(
            number: chapter.number, folder: chapter.folder, title: chapter.title, status: Self.key(of: status),
            label: status.label, reason: reason,
            tests: WorkbookReport.Counts(
                total: results.count, passed: results.filter { $0.result == "passed" }.count,
                failed: results.filter { $0.result == "failed" }.count,
                notRun: results.filter { $0.result == "skipped" || $0.result == "notRun" }.count),
            failingLessons: lessons, compileErrors: errors, tamperedFiles: tamper, testResults: results)
    }

    /// The status's key in the schema. A last-known status is no result of this run.
    static func key(of status: ChapterStatus) -> String {
        switch status {
        case .done: "done"
        case .failing: "failing"
        case .notStarted: "notStarted"
        case .testsModified: "testsModified"
        case .doesNotCompile: "doesNotCompile"
        case .lastKnown, .noResult: "noResult"
        }
    }
}

extension String {
    func trimmingTrailingNewlines() -> String {
        var copy = self
        while copy.last?.isNewline == true { copy.removeLast() }
        return copy
    }
}
