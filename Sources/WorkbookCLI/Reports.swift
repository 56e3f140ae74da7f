import Foundation
import WorkbookCurriculum

/// The text `list` prints: the chapter table, the progress bar and the next step.
public enum ProgressReport {
    public static func render(_ curriculum: Curriculum, statuses: [String: ChapterStatus]) -> String {
        let rows = curriculum.chapters.map { chapter in
            [
                String(format: "%02d", chapter.number), shortTitle(chapter),
                statuses[chapter.folder]?.label ?? "no result", shorten(chapter.concepts.first ?? "", to: 44),
            ]
        }
        let header = ["#", "Chapter", "Status", "Concept"]
        let widths = (0..<header.count).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingTrailingSpaces()
        }
        let doneCount = curriculum.chapters.filter { statuses[$0.folder]?.isDone == true }.count
        var text = "\(curriculum.title)\n\n" + ([line(header)] + rows.map(line)).joined(separator: "\n")
        text += "\n\n" + progressBar(done: doneCount, total: curriculum.chapters.count) + "\n\n"
        if let next = curriculum.chapters.first(where: { statuses[$0.folder]?.isDone != true }) {
            text += nextStep(next, status: statuses[next.folder])
        } else {
            text += "All \(curriculum.chapters.count) chapters done. Well done!\n"
        }
        return text
    }

    /// `[██████░░░░░░░░░░░░░░░░░░] 4/12 chapters done`
    public static func progressBar(done: Int, total: Int, width: Int = 24) -> String {
        let filled = total == 0 ? 0 : done * width / total
        return "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            + "] \(done)/\(total) chapters done"
    }

    static func nextStep(_ chapter: Curriculum.Chapter, status: ChapterStatus?) -> String {
        let number = String(format: "%02d", chapter.number)
        var text = "Next: chapter \(number), \(chapter.title)\n"
        if case .testsModified(let files)? = status {
            text += "  Its tests were edited, so its result does not count. Put them back first:\n"
            text += files.filter { !$0.hasPrefix("(") }.map { "    git checkout -- \($0)\n" }.joined()
        }
        text += "  Read:  \(chapter.readmePath)\n"
        text += "  Run:   swift run workbook check \(number)\n"
        text += "  Or re-check on every save:  swift run workbook watch \(number)\n"
        return text
    }

    /// The chapter's title up to its colon: "Continuations".
    static func shortTitle(_ chapter: Curriculum.Chapter) -> String {
        String(chapter.title.prefix { $0 != ":" })
    }

    static func shorten(_ text: String, to length: Int) -> String {
        text.count <= length ? text : String(text.prefix(length - 1)) + "…"
    }
}

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

/// A failure message split into what went wrong and the README section it names.
/// Lessons end their first line with "— see '<section>' in Chapters/<folder>/README.md".
public struct LessonText: Equatable {
    /// The message without the pointer to the README.
    public var text: String
    /// The README section the message names, if any.
    public var section: String?

    public init(_ message: String) {
        let pattern = #/ — see '(?<section>[^']+)' in \S+README\.md/#
        if let match = message.firstMatch(of: pattern) {
            section = String(match.output.section)
            text = message.replacingCharacters(in: match.range, with: "")
        } else {
            text = message
        }
    }

    /// The messages without repeats: a message that another one extends is dropped.
    public static func distinct(_ messages: [String]) -> [String] {
        var kept: [String] = []
        for message in messages {
            if kept.contains(where: { $0.hasPrefix(message) }) { continue }
            kept.removeAll { message.hasPrefix($0) }
            kept.append(message)
        }
        return kept
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
