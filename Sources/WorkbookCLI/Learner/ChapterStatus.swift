import WorkbookCurriculum

/// Where a learner stands on one chapter. README.md ("A status is …") and `list --help`
/// describe every label this can show; keep them in step.
public indirect enum ChapterStatus: Equatable, Sendable, Codable {
    /// Every test passes, the tests are the recorded ones, and the exercise was edited.
    case done(tests: Int)
    /// Some tests fail, and the learner has edited the exercise.
    case failing(failed: Int, of: Int)
    /// The exercise is exactly the original. Never done, whatever the tests say.
    case notStarted(tests: Int)
    /// The chapter's tests, the shared instruments or `Package.swift` differ from the
    /// recorded hashes, so no result of this chapter counts.
    case testsModified(files: [String])
    /// The compiler rejects the chapter's files.
    case doesNotCompile(errors: [String])
    /// The build failed elsewhere, so this is the status of the last run that built
    /// (`.workbook/status.json`); `editedSince` if the exercise changed after that run.
    case lastKnown(ChapterStatus, editedSince: Bool)
    /// The tests did not run, or the run stopped before reaching them.
    case noResult(reason: String)

    /// The status as the chapter table shows it.
    public var label: String {
        switch self {
        case .done: "done"
        case .failing(let failed, let total): "failing \(failed) of \(total)"
        case .notStarted: "not started"
        case .testsModified: "tests modified"
        case .doesNotCompile: "does not compile"
        case .lastKnown(let status, let editedSince):
            status.label + (editedSince ? " (last known, edited since)" : " (last known)")
        case .noResult: "no result"
        }
    }

    /// Done in this run. A last-known done is not: nothing was re-checked.
    public var isDone: Bool { if case .done = self { true } else { false } }

    /// Done in this run, or in the last run that built.
    public var isDoneOrLastKnownDone: Bool {
        if case .lastKnown(let status, _) = self { return status.isDone }
        return isDone
    }

    /// Decides a chapter's status from one test run of the learner build.
    /// - Parameters:
    ///   - run: the parsed event stream, or nil if the tests could not run at all.
    ///   - tamper: the comparison with the recorded hashes, or nil if there is no record.
    ///   - compileErrors: the compiler errors in this chapter's files.
    public static func of(
        _ chapter: Curriculum.Chapter, run: TestRun?, tamper: TamperReport?, compileErrors: [String] = []
    ) -> ChapterStatus {
        if let modified = tamper?.modifiedFiles(of: chapter.folder), !modified.isEmpty {
            return .testsModified(files: modified)
        }
        if !compileErrors.isEmpty { return .doesNotCompile(errors: compileErrors) }
        // An exercise that is the original (after `reset`, say) is not started, build or no build:
        // never a last known status from before.
        if run == nil, tamper?.untouchedExercises.contains(chapter.folder) == true { return .notStarted(tests: 0) }
        guard let run else { return .noResult(reason: Catalog.english("reason.notBuilt")) }
        let tests = run.tests(inModule: chapter.testTarget)
        if tests.isEmpty { return .noResult(reason: Catalog.english("reason.noTestsRan")) }
        let failed = tests.filter(\.failed).count
        // An exercise that is the original is not started, even if its tests pass.
        if tamper?.untouchedExercises.contains(chapter.folder) == true { return .notStarted(tests: tests.count) }
        if failed == 0 {
            if tests.allSatisfy(\.ended) { return .done(tests: tests.count) }
            return .noResult(reason: Catalog.english("reason.stoppedBeforeChapter"))
        }
        return .failing(failed: failed, of: tests.count)
    }
}
