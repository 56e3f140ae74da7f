import Foundation
import WorkbookCurriculum

/// One `swift test` run of the learner build (the exercises, no solutions) in
/// `.build-learner`: the scratch path `scripts/verify` uses for the exercise check, so every
/// build after the first is incremental. Building and testing in one invocation saves a
/// second SwiftPM start-up on every check.
public struct LearnerRun: Sendable {
    /// The console output of the run. Only read for compiler diagnostics, which exist only
    /// as text, and shown when the run produced no events at all.
    public var log: String
    /// The parsed event stream, or nil if no test ran (the build failed).
    public var run: TestRun?

    public init(log: String, run: TestRun?) {
        self.log = log
        self.run = run
    }

    /// Builds, then runs the tests of `chapters` once, reading results from the event stream.
    public static func perform(
        for chapters: [Curriculum.Chapter], in layout: PackageLayout, say: (String) -> Void
    ) throws(Interrupted) -> LearnerRun {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let logURL = work.appendingPathComponent("test.log")
        let events = work.appendingPathComponent("events.jsonl")

        let firstBuild = !FileManager.default.fileExists(atPath: layout.url(PackageLayout.learnerScratchPath).path)
        let which = chapters.count == 1 ? "chapter \(chapters[0].folder)" : "\(chapters.count) chapters"
        say(
            "Building and testing \(which) in \(PackageLayout.learnerScratchPath)"
                + (firstBuild ? " (the first build takes a minute or two)…" : "…"))
        var environment = ProcessInfo.processInfo.environment
        environment["WORKBOOK_MODE"] = nil  // learner mode, whatever the shell says
        let status = try Subprocess.run(
            [
                "swift", "test", "--scratch-path", PackageLayout.learnerScratchPath,
                "--event-stream-output-path", events.path, "--event-stream-version", "0",
            ]
                + chapters.flatMap { ["--filter", $0.testTarget] },
            in: layout.root, log: logURL, environment: environment)
        let log = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
        let stream = (try? String(contentsOf: events, encoding: .utf8)) ?? ""
        // No event at all and a failure: the tests never started, so the build failed.
        let noTestsRan = stream.isEmpty && status != 0
        return LearnerRun(log: log, run: noTestsRan ? nil : TestRun.parse(eventStream: stream))
    }

    /// Each chapter's status from this run and the tamper check.
    public func statuses(
        of chapters: [Curriculum.Chapter], curriculum: Curriculum, tamper: TamperReport?
    ) -> [String: ChapterStatus] {
        let errors = run == nil ? BuildDiagnostics.errorsByChapter(buildLog: log, curriculum: curriculum) : [:]
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
            let errors = BuildDiagnostics.errorLines(in: log)
            let shown = errors.isEmpty ? Array(log.split(separator: "\n").suffix(15).map(String.init)) : errors
            return "The build failed:\n" + shown.prefix(20).map { "  \($0)\n" }.joined()
        }
        if run?.tests.isEmpty == true {
            return "The tests did not run. The end of their output:\n"
                + log.split(separator: "\n").suffix(15).map { "  \($0)\n" }.joined()
        }
        return nil
    }
}
