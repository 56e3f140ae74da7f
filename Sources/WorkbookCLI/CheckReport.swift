import Foundation
import WorkbookCurriculum

/// The text `check` prints for one chapter.
public enum CheckReport {
    public static func render(
        _ chapter: Curriculum.Chapter, status: ChapterStatus, run: TestRun?, buildLog: String = ""
    ) -> String {
        let number = String(format: "%02d", chapter.number)
        var text = "Chapter \(number): \(chapter.title)\nStatus: \(status.label)\n\n"
        switch status {
        case .done(let tests):
            return text + "✓ All \(tests) tests pass. Chapter \(number) is done.\n"
        case .testsModified(let files):
            text += "These files differ from the recorded ones, so the chapter's result does not count:\n"
            text += files.map { "  \($0)\n" }.joined()
            return text + "Put them back (for example `git checkout -- <file>`), then check again.\n"
        case .doesNotCompile(let errors):
            text += "The compiler rejects the chapter's code:\n" + errors.prefix(20).map { "  \($0)\n" }.joined()
            return text + "\nFix these first: exercises must compile before their tests can run.\n"
        case .noResult(let reason):
            text += "No result: \(reason).\n"
            let errors = BuildDiagnostics.errorLines(in: buildLog)
            if !errors.isEmpty { text += errors.prefix(20).map { "  \($0)\n" }.joined() }
            return text
        case .failing, .notStarted:
            break
        }
        var sections: [String] = []
        for test in run?.tests(inModule: chapter.testTarget).filter(\.failed) ?? [] {
            text += "✗ \(test.displayName)\n"
            let messages = test.issues.isEmpty ? ["the test process stopped inside this test (a crash?)"] : test.issues
            for message in LessonText.distinct(messages) {
                let lesson = LessonText(message)
                text += lesson.text.split(separator: "\n", omittingEmptySubsequences: false)
                    .map { "    \($0)\n" }.joined()
                if let section = lesson.section, !sections.contains(section) { sections.append(section) }
            }
            text += "\n"
        }
        if let hint = chapter.hints.first {
            text += "Hint 1 of \(chapter.hints.count): \(hint)\n"
            if chapter.hints.count > 1 { text += "  (more: swift run workbook hint \(number))\n" }
        }
        text += "\nRead: \(chapter.readmePath)\n"
        text += sections.map { "  section \"\($0)\"\n" }.joined()
        return text
    }
}
