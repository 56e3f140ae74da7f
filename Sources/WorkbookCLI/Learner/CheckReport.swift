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
    ///   - strings: the language of the report's own words.
    ///   - lessons: shows each failure message in the learner's language; nil shows it as recorded.
    public static func render(
        _ chapter: Curriculum.Chapter, status: ChapterStatus, run: TestRun?, buildFailure: BuildFailure? = nil,
        tamper: [TamperFindings.Finding] = [], hint: ShownHint? = nil, width: Int? = nil,
        strings: Strings = .english, lessons: LessonTranslator? = nil
    ) -> String {
        let number = String(format: "%02d", chapter.number)
        var text = strings.checkHeader(number, chapter.title, strings.status(status))
        switch status {
        case .done(let tests):
            return text + strings.allTestsPass(tests, number)
        case .testsModified(let files):
            if tamper.isEmpty {
                text += strings.filesDiffer
                text += files.map { "  \($0)\n" }.joined()
                return text + strings.putThemBack
            }
            return text + TamperFindings.render(tamper, width: width, strings: strings) + strings.putThemBack
        case .doesNotCompile(let errors):
            if let buildFailure {
                text += buildFailure.renderErrors(width: width, only: chapter, strings: strings)
            } else {
                text += strings.compilerErrors + errors.prefix(20).map { "  \($0)\n" }.joined()
            }
            return text + strings.fixCompileErrorsFirst(number)
        case .lastKnown, .noResult:
            if case .noResult(let reason) = status { text += strings.noResult(reason) }
            if let buildFailure { text += explain(buildFailure, checking: chapter, width: width, strings: strings) }
            return text
        case .failing, .notStarted:
            // An exercise that is the original again is not started while another chapter
            // breaks the build; its tests did not run, and the broken chapter is the next step.
            if run == nil, let buildFailure {
                return text + explain(buildFailure, checking: chapter, width: width, strings: strings)
            }
        }
        var sections: [String] = []
        var elsewhere: [(reading: String, section: String)] = []  // sections in another README
        for test in run?.tests(inModule: chapter.testTarget).filter(\.failed) ?? [] {
            text +=
                lessons?.testName(test.displayName, chapter: chapter).map {
                    strings.failingTestTranslated($0, test.displayName)
                } ?? strings.failingTest(test.displayName)
            let messages = test.issues.isEmpty ? [strings.processStoppedInTest] : test.issues
            var shownLessons: [LessonText] = []
            var untranslated: Set<Substring> = []  // the sentences shown in English
            for message in LessonText.distinct(messages) {
                let shown = lessons?.show(message, chapter: chapter)
                var lesson = shown?.lesson ?? LessonText(message)
                lesson.text = PackageLayout.editorPaths(in: lesson.text, chapters: [chapter])
                shownLessons.append(lesson)
                if shown?.translated == false, !test.issues.isEmpty {
                    untranslated.insert(lesson.text.prefix { $0 != "\n" })
                }
            }
            for lesson in LessonText.merged(shownLessons) {
                text += TextWrap.wrap(lesson.text, width: width, indent: "    ") + "\n"
                if untranslated.contains(lesson.text.prefix { $0 != "\n" }), !strings.untranslatedLesson.isEmpty {
                    text += TextWrap.wrap(strings.untranslatedLesson, width: width, indent: "    ") + "\n"
                }
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
                    strings.checkHint(hint.number, chapter.hints.count, chapter.hints[hint.number - 1]), width: width,
                    continuation: "  ") + "\n"
            if hint.more { text += strings.moreHints(number) }
        }
        text += "\n" + strings.readLine(chapter.readmePath)
        text += sections.map(strings.sectionLine).joined()
        for reading in Set(elsewhere.map(\.reading)).sorted() {
            text += strings.readLine(reading)
            text += elsewhere.filter { $0.reading == reading }.map { strings.sectionLine($0.section) }.joined()
        }
        return text
    }

    /// Why `chapter`'s tests could not run: the chapter that breaks the build, the next step and
    /// the compiler's errors.
    static func explain(
        _ buildFailure: BuildFailure, checking chapter: Curriculum.Chapter, width: Int?, strings: Strings
    ) -> String {
        TextWrap.wrap(buildFailure.summary(checking: chapter, strings: strings), width: width) + "\n\n"
            + TextWrap.wrapFirstLine(buildFailure.nextStep(strings: strings), width: width) + "\n"
            + buildFailure.renderErrors(width: width, strings: strings)
    }

    /// What to do after `chapter` passed: the next chapter after it (wrapping around) that
    /// `known` (the last known statuses) does not have as done, as `list` and `watch` point
    /// to it, or that every chapter is done.
    public static func nextAfterPass(
        _ chapter: Curriculum.Chapter, curriculum: Curriculum, known: [String: ChapterStatus], width: Int? = nil,
        strings: Strings = .english
    ) -> String {
        var statuses = known
        statuses[chapter.folder] = .done(tests: 0)
        guard let next = curriculum.firstNotDone(after: chapter, statuses: statuses) else {
            return strings.allChaptersDone(curriculum.chapters.count)
        }
        return ProgressReport.nextStep(next, status: known[next.folder], width: width, strings: strings)
    }
}
