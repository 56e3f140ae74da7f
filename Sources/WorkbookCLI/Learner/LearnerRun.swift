import Foundation
import WorkbookCurriculum

/// One run of the learner build's tests (the exercises, no solutions) in the package's default
/// build folder, `.build`: the one `swift run workbook`, `swift test --filter …` and an editor
/// use, so they share one build. The same flags as a plain `swift test`, plus
/// `--disable-default-traits` where the package declares traits: it builds identically while no
/// default trait is declared, and ignores one a learner declares (say, `Solutions`).
/// ``LearnerCommands`` says how it is built and run: one SwiftPM start-up per check.
public struct LearnerRun: Sendable {
    /// The console output of the run. Only read for compiler diagnostics, which exist only
    /// as text, and shown when the run produced no events at all.
    public var log: String
    /// The parsed event stream, or nil if no test ran (the build failed).
    public var run: TestRun?
    /// The package root, to shorten the paths in compiler errors.
    public var root: URL?

    /// How the run ended; anything but `.finished` means it was cut short (see ``RunAccounting``).
    public var ending: RunEnding = .finished
    /// What to say about a run that was cut short: which tests were running, and why.
    public var stopReport: String?
    /// The files the verdict is about, as they were when the run started.
    public var fingerprint = RunFingerprint()
    /// Files that changed while the run went on, on every attempt: its result is not used.
    public var changedDuringRun: [String] = []
    /// The limits the run was made under.
    public var limits = RunLimits()
    /// How many chapters the run tested.
    public var chapterCount = 1
    /// The language of the reports about the run (``stopReport``, ``troubleReport``).
    public var language = Language.english

    public init(log: String, run: TestRun?, root: URL? = nil) {
        self.log = log
        self.run = run
        self.root = root
    }

    /// Builds, then runs the tests of `chapters` once, reading results from the event stream.
    /// The run is limited in time and memory, and made again if the files change meanwhile
    /// (see ``LearnerRun/limitedRun(_:building:product:chapters:in:environment:limits:language:say:progress:)``);
    /// `progress` shows the build's progress (see ``BuildProgress``).
    public static func perform(
        for chapters: [Curriculum.Chapter], in layout: PackageLayout, limits: RunLimits = RunLimits(),
        language: Language = .english, say: (String) -> Void, progress: BuildProgress.Display? = nil
    ) throws(Interrupted) -> LearnerRun {
        let firstBuild = !BuildProgress.testsWereBuilt(in: layout)
        let text = language.catalog
        say(
            (chapters.count == 1
                ? text("run.building.one", ["folder": chapters[0].folder])
                : text("run.building.many", ["count": chapters.count]))
                + text(firstBuild ? "run.building.first" : "run.building.again"))
        var environment = ProcessInfo.processInfo.environment
        environment["WORKBOOK_MODE"] = nil  // learner mode, whatever the shell says
        environment["WORKBOOK_SHARED_CHILD"] = nil  // a child process per scenario, as CI's first run
        let commands = LearnerCommands(for: chapters, in: layout)
        // The test executable on its own colours its output on a terminal-like TERM; `swift test` doesn't.
        if commands.build != nil { environment["NO_COLOR"] = "1" }
        return try limitedRun(
            commands.test, building: commands.build, product: commands.product, chapters: chapters, in: layout,
            environment: environment,
            limits: limits, language: language, say: say, progress: progress)
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
            if ending.isStop, chapterCount > 1, case .failing = result[chapter.folder],
                let tests = run?.tests(inModule: chapter.testTarget),
                tests.allSatisfy({ $0.issues.isEmpty || ($0.started && !$0.ended) })
            {
                // Its only failures are tests the stop left unfinished, maybe waiting for another chapter.
                result[chapter.folder] = .noResult(reason: Catalog.english("reason.stoppedBeforeTests"))
            }
            let folders = RunFingerprint.folders(of: [chapter])
            if changedDuringRun.contains(where: { path in folders.contains { path.hasPrefix($0 + "/") } }) {
                result[chapter.folder] = .noResult(reason: Catalog.english("reason.keptChanging"))
            }
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
        let text = language.catalog
        if run == nil {
            // A failed build is a ``BuildFailure``; say here only what it can't: memory.
            guard RunAccounting.mentionsOutOfMemory(log) else { return nil }
            return text("build.outOfMemory", ["limit": limits.memoryLimitText])
        }
        if let stopReport { return stopReport }
        if !changedDuringRun.isEmpty {
            return text("run.keptChanging") + changedDuringRun.map { "  \($0)\n" }.joined()
        }
        if run?.tests.isEmpty == true {
            return text("run.noTestsRan") + log.split(separator: "\n").suffix(15).map { "  \($0)\n" }.joined()
        }
        return nil
    }
}
