import WorkbookCurriculum

/// Where a learner stands on one chapter.
public enum ChapterStatus: Equatable, Sendable {
    /// Every test passes, and the tests are the recorded ones.
    case done(tests: Int)
    /// Some tests fail, and the learner has edited the exercise.
    case failing(failed: Int, of: Int)
    /// Some tests fail, and the exercise is exactly the original.
    case notStarted(tests: Int)
    /// The chapter's tests or the shared instruments differ from the recorded hashes,
    /// so no result of this chapter counts.
    case testsModified(files: [String])
    /// The compiler rejects the chapter's files.
    case doesNotCompile(errors: [String])
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
        case .noResult: "no result"
        }
    }

    public var isDone: Bool { if case .done = self { true } else { false } }

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
        guard let run else { return .noResult(reason: "the workbook did not build") }
        let tests = run.tests(inModule: chapter.testTarget)
        if tests.isEmpty { return .noResult(reason: "none of its tests ran") }
        let failed = tests.filter(\.failed).count
        if failed == 0 {
            if tests.allSatisfy(\.ended) { return .done(tests: tests.count) }
            return .noResult(reason: "the test run stopped before this chapter finished")
        }
        if tamper?.untouchedExercises.contains(chapter.folder) == true { return .notStarted(tests: tests.count) }
        return .failing(failed: failed, of: tests.count)
    }
}
