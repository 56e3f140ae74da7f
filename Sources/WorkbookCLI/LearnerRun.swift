import Foundation
import WorkbookCurriculum

/// One `swift test` run of the learner build (the exercises, no solutions) in the package's
/// default build folder, `.build`: the one `swift run workbook`, `swift test --filter …` and an
/// editor use, so they all share one build. The same flags as a plain `swift test`, plus
/// `--disable-default-traits` where the package declares traits: it builds identically while no
/// default trait is declared, and ignores one a learner declares (say, `Solutions`). Building
/// and testing in one invocation saves a second SwiftPM start-up on every check.
public struct LearnerRun: Sendable {
    /// The console output of the run. Only read for compiler diagnostics, which exist only
    /// as text, and shown when the run produced no events at all.
    public var log: String
    /// The parsed event stream, or nil if no test ran (the build failed).
    public var run: TestRun?
    /// The package root, to shorten the paths in compiler errors.
    public var root: URL?

    public init(log: String, run: TestRun?, root: URL? = nil) {
        self.log = log
        self.run = run
        self.root = root
    }

    /// Builds, then runs the tests of `chapters` once, reading results from the event stream.
    /// `progress` shows the build's progress (see ``BuildProgress``).
    public static func perform(
        for chapters: [Curriculum.Chapter], in layout: PackageLayout, say: (String) -> Void,
        progress: BuildProgress.Display? = nil
    ) throws(Interrupted) -> LearnerRun {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let logURL = work.appendingPathComponent("test.log")
        let events = work.appendingPathComponent("events.jsonl")

        let firstBuild = !BuildProgress.testsWereBuilt(in: layout)
        let which = chapters.count == 1 ? "chapter \(chapters[0].folder)" : "\(chapters.count) chapters"
        say(
            "Building and testing \(which)"
                + (firstBuild ? " (the first build compiles everything: a minute or two)…" : "…"))
        let follower = progress.map { BuildProgress(log: logURL, display: $0) }
        follower?.start()
        defer { follower?.stop() }
        var environment = ProcessInfo.processInfo.environment
        environment["WORKBOOK_MODE"] = nil  // learner mode, whatever the shell says
        let status = try Subprocess.run(
            [
                "swift", "test", "--event-stream-output-path", events.path, "--event-stream-version", "0",
            ]
                + (layout.declaresTraits ? ["--disable-default-traits"] : [])
                + chapters.flatMap { ["--filter", $0.testTarget] },
            in: layout.root, log: logURL, environment: environment)
        let log = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
        let stream = (try? String(contentsOf: events, encoding: .utf8)) ?? ""
        // No event at all and a failure: the tests never started, so the build failed.
        let noTestsRan = stream.isEmpty && status != 0
        return LearnerRun(log: log, run: noTestsRan ? nil : TestRun.parse(eventStream: stream), root: layout.root)
    }

    /// Each chapter's status from this run and the tamper check.
    public func statuses(
        of chapters: [Curriculum.Chapter], curriculum: Curriculum, tamper: TamperReport?
    ) -> [String: ChapterStatus] {
        let errors =
            run == nil ? BuildDiagnostics.errorsByChapter(buildLog: log, curriculum: curriculum, root: root) : [:]
        var result: [String: ChapterStatus] = [:]
        for chapter in chapters {
            result[chapter.folder] = ChapterStatus.of(
                chapter, run: run, tamper: tamper, compileErrors: errors[chapter.folder] ?? [])
        }
        return result
    }

    /// The failed build, or nil if the tests ran.
    public func buildFailure(curriculum: Curriculum) -> BuildFailure? {
        run == nil ? BuildFailure(log: log, curriculum: curriculum, root: root) : nil
    }

    /// What to say when the tests ran but produced no result at all: the end of their output.
    /// (A failed build is a ``BuildFailure``.)
    public var troubleReport: String? {
        if run == nil { return nil }
        if run?.tests.isEmpty == true {
            return "The tests did not run. The end of their output:\n"
                + log.split(separator: "\n").suffix(15).map { "  \($0)\n" }.joined()
        }
        return nil
    }
}
