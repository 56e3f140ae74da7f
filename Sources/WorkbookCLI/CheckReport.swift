import Foundation
import WorkbookCurriculum

/// The text `check` prints for one chapter.
public enum CheckReport {
    /// The hint shown under the failures.
    public struct ShownHint: Equatable, Sendable {
        public var number: Int
        /// Whether a hint the learner has not seen is left.
        public var more: Bool

        public init(number: Int, more: Bool) {
            self.number = number
            self.more = more
        }
    }

    /// - Parameters:
    ///   - buildFailure: the failed build, when the tests could not run.
    ///   - tamper: the edits that void this chapter's result, in words, with how to undo them.
    ///   - hint: the hint to show under the failures, if any.
    ///   - width: the terminal's width, to wrap long messages; nil does not wrap.
    public static func render(
        _ chapter: Curriculum.Chapter, status: ChapterStatus, run: TestRun?, buildFailure: BuildFailure? = nil,
        tamper: [TamperFindings.Finding] = [], hint: ShownHint? = nil, width: Int? = nil
    ) -> String {
        let number = String(format: "%02d", chapter.number)
        var text = "Chapter \(number): \(chapter.title)\nStatus: \(status.label)\n\n"
        switch status {
        case .done(let tests):
            return text + "✓ All \(tests) tests pass. Chapter \(number) is done.\n"
        case .testsModified(let files):
            if tamper.isEmpty {
                text += "These files differ from the recorded ones, so the chapter's result does not count:\n"
                text += files.map { "  \($0)\n" }.joined()
                return text + "Put them back, then check again.\n"
            }
            return text + TamperFindings.render(tamper, width: width) + "Put them back, then check again.\n"
        case .doesNotCompile(let errors):
            if let buildFailure {
                text += buildFailure.renderErrors(width: width, only: chapter)
            } else {
                text += "The compiler's errors:\n" + errors.prefix(20).map { "  \($0)\n" }.joined()
            }
            return text
                + "\nFix these first: exercises must compile before any test can run (all chapters build together).\n"
                + "Or put the original back:  swift run workbook reset \(number)\n"
        case .lastKnown, .noResult:
            if case .noResult(let reason) = status { text += "No result: \(reason).\n" }
            if let buildFailure {
                text += TextWrap.wrap(buildFailure.summary(checking: chapter), width: width) + "\n\n"
                text += buildFailure.nextStep() + "\n" + buildFailure.renderErrors(width: width)
            }
            return text
        case .failing, .notStarted:
            break
        }
        var sections: [String] = []
        var elsewhere: [(reading: String, section: String)] = []  // sections in another README
        for test in run?.tests(inModule: chapter.testTarget).filter(\.failed) ?? [] {
            text += "✗ \(test.displayName)\n"
            let messages = test.issues.isEmpty ? ["the test process stopped inside this test (a crash?)"] : test.issues
            for message in LessonText.distinct(messages) {
                let lesson = LessonText(message)
                text += TextWrap.wrap(lesson.text, width: width, indent: "    ") + "\n"
                if let section = lesson.section {
                    if let reading = lesson.reading, reading != chapter.readmePath {
                        if !elsewhere.contains(where: { $0 == (reading, section) }) {
                            elsewhere.append((reading, section))
                        }
                    } else if !sections.contains(section) {
                        sections.append(section)
                    }
                }
            }
            text += "\n"
        }
        if let hint, hint.number <= chapter.hints.count {
            text +=
                TextWrap.wrap(
                    "Hint \(hint.number) of \(chapter.hints.count): \(chapter.hints[hint.number - 1])", width: width,
                    continuation: "  ") + "\n"
            if hint.more { text += "  (more: swift run workbook hint \(number))\n" }
        }
        text += "\nRead: \(chapter.readmePath)\n"
        text += sections.map { "  section \"\($0)\"\n" }.joined()
        for reading in Set(elsewhere.map(\.reading)).sorted() {
            text += "Read: \(reading)\n"
            text += elsewhere.filter { $0.reading == reading }.map { "  section \"\($0.section)\"\n" }.joined()
        }
        return text
    }
}
