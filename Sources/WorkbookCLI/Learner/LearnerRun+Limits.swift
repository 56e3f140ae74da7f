import Foundation
import WorkbookCurriculum

extension LearnerRun {
    /// How many times a run is made while the files keep changing under it.
    static let maximumAttempts = 3

    /// Runs `arguments` (a command line that runs the tests, without its event-stream options)
    /// for `chapters` under `limits`, after `build` if one is given (or a ``QuickBuild`` of
    /// `product`, where one can be trusted), with a temporary folder of its own, and accounts for
    /// every test (see ``RunAccounting``). If the chapters' files change during the run, its
    /// result is not used: the changed modules' builds are invalidated and the run is made again.
    public static func limitedRun(
        _ arguments: [String], building build: [String]? = nil, product: String? = nil,
        chapters: [Curriculum.Chapter], in layout: PackageLayout,
        environment: [String: String], limits: RunLimits, language: Language = .english, say: (String) -> Void,
        progress: BuildProgress.Display? = nil
    ) throws(Interrupted) -> LearnerRun {
        let scratchPath = PackageLayout.learnerScratchPath
        let folder = ToolTemporaryFolder.make(in: layout, scratchPath: scratchPath)
        defer { folder.remove() }
        var attempt = 0
        while true {
            attempt += 1
            let before = RunFingerprint.take(of: chapters, root: layout.root)
            var result = try runOnce(
                arguments, building: build, product: product, attempt: attempt, chapters: chapters, in: layout,
                environment: folder.environment(environment), folder: folder, limits: limits, language: language,
                progress: progress)
            let changed = RunFingerprint.take(of: chapters, root: layout.root).changes(since: before)
            result.fingerprint = before
            if changed.isEmpty { return result }
            RunFingerprint.invalidateBuild(of: changed, chapters: chapters, in: layout, scratchPath: scratchPath)
            result.changedDuringRun = changed
            if attempt == maximumAttempts { return result }
            let names = changed.map { ($0 as NSString).lastPathComponent }.joined(separator: ", ")
            say(language.catalog("run.changedDuringRun", ["names": names]))
            // An editor saving several times (or a burst of saves) is still saving: start again
            // once the files have been quiet for a moment, so the next attempt is about the last save.
            waitForQuietFiles(of: chapters, root: layout.root)
        }
    }

    /// How long the chapters' files must stay the same before a run is made again, and the most
    /// a run waits for that.
    static let quietPeriod: TimeInterval = 0.3
    static let longestQuietWait: TimeInterval = 3

    /// Returns once the fingerprint of `chapters`' files has not changed for ``quietPeriod``
    /// (or after ``longestQuietWait``, if they keep changing).
    static func waitForQuietFiles(of chapters: [Curriculum.Chapter], root: URL) {
        let start = Date()
        var last = RunFingerprint.take(of: chapters, root: root)
        var quietSince = Date()
        while Date().timeIntervalSince(quietSince) < quietPeriod, Date().timeIntervalSince(start) < longestQuietWait {
            Thread.sleep(forTimeInterval: 0.05)
            let now = RunFingerprint.take(of: chapters, root: root)
            if !now.changes(since: last).isEmpty {
                last = now
                quietSince = Date()
            }
        }
    }

    /// One run: the build (if `build` is given), then the tests under the time and memory limits,
    /// the events read and accounted for.
    static func runOnce(
        _ arguments: [String], building build: [String]? = nil, product: String? = nil, attempt: Int,
        chapters: [Curriculum.Chapter],
        in layout: PackageLayout, environment: [String: String], folder: ToolTemporaryFolder, limits: RunLimits,
        language: Language = .english, progress: BuildProgress.Display? = nil
    ) throws(Interrupted) -> LearnerRun {
        var result = LearnerRun(log: "", run: nil, root: layout.root)
        result.limits = limits
        result.chapterCount = chapters.count
        result.language = language
        // Within the memory limit; the time limit only once `clockStart` (the event stream) has data.
        func limited(
            _ command: [String], _ name: String, timed clockStart: URL?, showingProgress: Bool = true
        ) throws(Interrupted) -> LimitedRun.Outcome {
            let output = folder.url.appendingPathComponent("\(name)-\(attempt).log")
            let follower = showingProgress ? progress.map { BuildProgress(log: output, display: $0) } : nil
            follower?.start()
            defer {
                follower?.stop()
                try? FileManager.default.removeItem(at: output)
            }
            return try LimitedRun.run(
                command, in: layout.root, environment: environment,
                timeLimit: clockStart == nil ? nil : TimeInterval(limits.timeLimit), clockStart: clockStart,
                memoryLimitKilobytes: limits.memoryLimitKilobytes, copy: follower == nil ? nil : output)
        }
        if let build {
            if product != nil { QuickBuild.invalidateEditsWithinTheSecond(in: layout) }
            switch try quickBuild(product, in: layout, environment: environment, limits: limits) {
            case .built(let log):
                result.log = log
            case .failed(let log):
                result.log = log
                return result  // the tests never ran: the build failed
            case .unavailable, nil:
                let sources = product == nil ? [:] : QuickBuild.sourcesNow(in: layout)
                let built = try limited(build, "build", timed: nil)
                result.log = built.output
                guard built.status == 0 else {
                    QuickBuild.forget(in: layout)
                    return result  // the tests never ran: the build failed
                }
                if let product { QuickBuild.record(product: product, in: layout, sourcesBefore: sources) }
            }
        }
        let events = folder.url.appendingPathComponent("events-\(attempt).jsonl")
        let outcome = try limited(
            arguments + ["--event-stream-output-path", events.path, "--event-stream-version", "0"],
            build == nil ? "output" : "tests", timed: events, showingProgress: build == nil)
        result.log += outcome.output
        let stream = (try? String(contentsOf: events, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: events)
        // No event at all and a failure of `swift test`: the tests never started, so the build failed.
        if build == nil && stream.isEmpty && outcome.status != 0 && !outcome.passedTimeLimit { return result }
        var run = TestRun.parse(eventStream: stream)
        let ending = RunAccounting.ending(
            of: run, log: outcome.output, status: outcome.status, passedTimeLimit: outcome.passedTimeLimit,
            limits: limits, signal: build == nil ? nil : outcome.signal)
        RunAccounting.annotate(&run, ending: ending, limits: limits)
        result.run = run
        result.ending = ending
        if ending.isStop {
            result.stopReport = RunAccounting.report(
                run, ending: ending, chapters: chapters,
                untouched: chapters.count > 1 ? untouchedExercises(in: layout) : [], language: language)
        }
        return result
    }

    /// A ``QuickBuild`` of `product`, or nil when there is none to try.
    static func quickBuild(
        _ product: String?, in layout: PackageLayout, environment: [String: String], limits: RunLimits
    ) throws(Interrupted) -> QuickBuild.Outcome? {
        guard let product, QuickBuild.isEnabled(environment: environment) else { return nil }
        return try QuickBuild.run(
            product: product, in: layout, environment: environment, memoryLimitKilobytes: limits.memoryLimitKilobytes)
    }

    /// The chapters whose exercises are as they were handed out (empty without a record).
    static func untouchedExercises(in layout: PackageLayout) -> Set<String> {
        guard let curriculum = try? layout.loadCurriculum(), let recorded = try? TestHashes.load(from: layout)
        else { return [] }
        return recorded.compare(with: TestHashes.compute(for: curriculum, in: layout)).untouchedExercises
    }
}
