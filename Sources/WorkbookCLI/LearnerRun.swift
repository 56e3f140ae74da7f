import Foundation
import WorkbookCurriculum

/// One build and one `swift test` run of the learner build (the exercises, no solutions),
/// in `.build-learner`: the scratch path `scripts/verify` uses for the exercise check, so
/// every build after the first is incremental.
public struct LearnerRun: Sendable {
    /// The build's output (compiler diagnostics exist only as text).
    public var buildLog: String
    /// The parsed event stream, or nil if the build failed and no test ran.
    public var run: TestRun?
    /// The test run's console output, shown only if the stream says nothing.
    public var testLog: String

    public init(buildLog: String, run: TestRun?, testLog: String) {
        self.buildLog = buildLog
        self.run = run
        self.testLog = testLog
    }

    /// Builds, then runs the tests of `chapters` once, reading results from the event stream.
    public static func perform(
        for chapters: [Curriculum.Chapter], in layout: PackageLayout, say: (String) -> Void
    ) throws(Interrupted) -> LearnerRun {
        let scratch = ["--scratch-path", PackageLayout.learnerScratchPath]
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let buildLogURL = work.appendingPathComponent("build.log")
        let testLogURL = work.appendingPathComponent("test.log")
        let events = work.appendingPathComponent("events.jsonl")

        let firstBuild = !FileManager.default.fileExists(atPath: layout.url(PackageLayout.learnerScratchPath).path)
        say(
            "Building the exercises in \(PackageLayout.learnerScratchPath)\(firstBuild ? " (the first build takes a minute or two)" : "")…"
        )
        let built = try Subprocess.run(
            ["swift", "build", "--build-tests"] + scratch, in: layout.root, log: buildLogURL)
        let buildLog = (try? String(contentsOf: buildLogURL, encoding: .utf8)) ?? ""
        guard built == 0 else { return LearnerRun(buildLog: buildLog, run: nil, testLog: "") }

        say(
            "Running the tests of \(chapters.count == 1 ? "chapter \(chapters[0].folder)" : "\(chapters.count) chapters")…"
        )
        var environment = ProcessInfo.processInfo.environment
        environment["WORKBOOK_MODE"] = nil  // learner mode, whatever the shell says
        let filters = chapters.flatMap { ["--filter", $0.testTarget] }
        _ = try Subprocess.run(
            ["swift", "test", "--skip-build"] + scratch
                + ["--event-stream-output-path", events.path, "--event-stream-version", "0"] + filters,
            in: layout.root, log: testLogURL, environment: environment)
        let stream = (try? String(contentsOf: events, encoding: .utf8)) ?? ""
        return LearnerRun(
            buildLog: buildLog, run: TestRun.parse(eventStream: stream),
            testLog: (try? String(contentsOf: testLogURL, encoding: .utf8)) ?? "")
    }

    /// Each chapter's status from this run and the tamper check.
    public func statuses(
        of chapters: [Curriculum.Chapter], curriculum: Curriculum, tamper: TamperReport?
    ) -> [String: ChapterStatus] {
        let errors = run == nil ? BuildDiagnostics.errorsByChapter(buildLog: buildLog, curriculum: curriculum) : [:]
        var result: [String: ChapterStatus] = [:]
        for chapter in chapters {
            result[chapter.folder] = ChapterStatus.of(
                chapter, run: run, tamper: tamper, compileErrors: errors[chapter.folder] ?? [])
        }
        return result
    }

    /// What to say when the run produced no result at all: the build's errors, or the end
    /// of the test run's output.
    public var troubleReport: String? {
        if run == nil {
            let errors = BuildDiagnostics.errorLines(in: buildLog)
            let shown = errors.isEmpty ? Array(buildLog.split(separator: "\n").suffix(15).map(String.init)) : errors
            return "The build failed:\n" + shown.prefix(20).map { "  \($0)\n" }.joined()
        }
        if run?.tests.isEmpty == true {
            return "The tests did not run. The end of their output:\n"
                + testLog.split(separator: "\n").suffix(15).map { "  \($0)\n" }.joined()
        }
        return nil
    }
}
