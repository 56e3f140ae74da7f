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
        tamper: TamperFindings? = nil, width: Int? = nil, strings: Strings = .english
    ) -> String {
        let header = strings.tableHeader
        var rows = curriculum.chapters.map { chapter in
            [
                String(format: "%02d", chapter.number), shortTitle(chapter),
                strings.status(statuses[chapter.folder] ?? .noResult(reason: "")),
            ]
        }
        // The concept gets what is left of the table's width (an 80-column terminal, or a narrower one).
        let fixed = (0..<3).map { column in ([header] + rows).map { TextWrap.displayWidth($0[column]) }.max() ?? 0 }
        let conceptWidth = max(
            minimumConceptWidth,
            min(44, min(width ?? tableWidth, tableWidth) - fixed.reduce(0, +) - 2 * fixed.count))
        for (index, chapter) in curriculum.chapters.enumerated() {
            rows[index].append(shorten(chapter.concepts.first ?? "", to: conceptWidth))
        }
        // Columns by the width on a terminal: a Hangul syllable takes two cells.
        let widths = (0..<header.count).map { column in
            ([header] + rows).map { TextWrap.displayWidth($0[column]) }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0 + String(repeating: " ", count: max(0, $1 - TextWrap.displayWidth($0))) }
                .joined(separator: "  ").trimmingTrailingSpaces()
        }
        let doneCount = curriculum.chapters.filter { statuses[$0.folder]?.isDoneOrLastKnownDone == true }.count
        let lastKnownDone = curriculum.chapters.filter {
            statuses[$0.folder]?.isDoneOrLastKnownDone == true && statuses[$0.folder]?.isDone != true
        }.count
        var text = "\(curriculum.title)\n\n" + ([line(header)] + rows.map(line)).joined(separator: "\n")
        text += "\n\n" + progressBar(done: doneCount, total: curriculum.chapters.count, strings: strings)
        text += lastKnownDone > 0 ? strings.lastKnownOfThem(lastKnownDone) + "\n\n" : "\n\n"
        if let tamper, !tamper.isEmpty {
            text += TamperFindings.render(tamper.findings, width: width, strings: strings) + "\n"
        }
        if let buildFailure {
            text += TextWrap.wrap(buildFailure.summary(strings: strings), width: width) + "\n"
            if lastKnownDone > 0 || statuses.values.contains(where: { if case .lastKnown = $0 { true } else { false } })
            {
                text += strings.lastKnownNote
            }
            text +=
                "\n" + TextWrap.wrapFirstLine(buildFailure.nextStep(strings: strings), width: width) + "\n"
                + buildFailure.renderErrors(width: width, strings: strings)
            return text
        }
        if let next = curriculum.chapters.first(where: { statuses[$0.folder]?.isDoneOrLastKnownDone != true }) {
            text += nextStep(next, status: statuses[next.folder], width: width, strings: strings)
        } else {
            text += strings.allChaptersDone(curriculum.chapters.count)
        }
        return text
    }

    /// The widest the chapter table gets: macOS Terminal's default width.
    public static let tableWidth = 80
    /// The concept column never gets narrower than this (a terminal too narrow for it wraps).
    static let minimumConceptWidth = 12

    /// `[██████░░░░░░░░░░░░░░░░░░] 4/12 chapters done`
    public static func progressBar(done: Int, total: Int, width: Int = 24, strings: Strings = .english) -> String {
        let filled = total == 0 ? 0 : done * width / total
        return "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            + "] " + strings.chaptersDone(done, total)
    }

    /// "Next: chapter 02, …" and its commands; a first line wider than `width` (a long title)
    /// wraps under itself.
    static func nextStep(
        _ chapter: Curriculum.Chapter, status: ChapterStatus?, width: Int? = nil, strings: Strings = .english
    ) -> String {
        let testsModified = if case .testsModified? = status { true } else { false }
        return TextWrap.wrapFirstLine(
            strings.nextStep(String(format: "%02d", chapter.number), chapter.title, chapter.readmePath, testsModified),
            width: width)
    }

    /// The chapter's title up to its colon: "Continuations".
    static func shortTitle(_ chapter: Curriculum.Chapter) -> String {
        String(chapter.title.prefix { $0 != ":" })
    }

    /// `text` in at most `length` terminal cells, ending in "…" when cut.
    static func shorten(_ text: String, to length: Int) -> String {
        guard TextWrap.displayWidth(text) > length else { return text }
        var kept = ""
        for character in text {
            if TextWrap.displayWidth(kept) + TextWrap.displayWidth(String(character)) > length - 1 { break }
            kept.append(character)
        }
        return kept + "…"
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
