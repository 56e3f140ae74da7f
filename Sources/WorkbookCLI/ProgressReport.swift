import Foundation
import WorkbookCurriculum

/// The text `list` prints: the chapter table, the progress bar and the next step.
public enum ProgressReport {
    /// - Parameters:
    ///   - buildFailure: the failed build, when the tests could not run: said after the bar,
    ///     and the next step is the broken chapter; its errors end the text.
    ///   - tamper: edits that void results, in words, with how to undo them.
    ///   - width: the terminal's width, to wrap long sentences; nil does not wrap.
    public static func render(
        _ curriculum: Curriculum, statuses: [String: ChapterStatus], buildFailure: BuildFailure? = nil,
        tamper: TamperFindings? = nil, width: Int? = nil
    ) -> String {
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
        let doneCount = curriculum.chapters.filter { statuses[$0.folder]?.isDoneOrLastKnownDone == true }.count
        let lastKnownDone = curriculum.chapters.filter {
            statuses[$0.folder]?.isDoneOrLastKnownDone == true && statuses[$0.folder]?.isDone != true
        }.count
        var text = "\(curriculum.title)\n\n" + ([line(header)] + rows.map(line)).joined(separator: "\n")
        text += "\n\n" + progressBar(done: doneCount, total: curriculum.chapters.count)
        text += lastKnownDone > 0 ? " (\(lastKnownDone) of them last known)\n\n" : "\n\n"
        if let tamper, !tamper.isEmpty { text += TamperFindings.render(tamper.findings, width: width) + "\n" }
        if let buildFailure {
            text += TextWrap.wrap(buildFailure.summary(), width: width) + "\n"
            if lastKnownDone > 0 || statuses.values.contains(where: { if case .lastKnown = $0 { true } else { false } })
            {
                text += "Statuses marked (last known) are from the last run that built.\n"
            }
            text += "\n" + buildFailure.nextStep() + "\n" + buildFailure.renderErrors(width: width)
            return text
        }
        if let next = curriculum.chapters.first(where: { statuses[$0.folder]?.isDoneOrLastKnownDone != true }) {
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
        if case .testsModified? = status {
            text +=
                "  Files its result depends on were changed (see above), so it can't be done. Put them back first.\n"
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

extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
