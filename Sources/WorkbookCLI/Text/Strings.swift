import WorkbookCurriculum

/// Everything the learner's commands print, in one language: ``english`` (here) and
/// ``korean`` (Strings+Korean.swift). Chapter titles, concepts, hints and lessons come from the
/// curriculum and the lesson catalogs instead (see ``Translation`` and ``LessonTranslator``).
/// The English texts are the tool's output byte for byte: scripts/test-workbook-cli and the
/// README compare them.
public struct Strings: Sendable {
    public var language: Language

    // MARK: The chapter table (`list`)

    /// The column titles: number, chapter, status, concept.
    public var tableHeader: [String]
    /// A status as the table and `check` show it.
    public var status: @Sendable (ChapterStatus) -> String
    /// After the progress bar: "4/12 chapters done".
    public var chaptersDone: @Sendable (_ done: Int, _ total: Int) -> String
    /// After the count, when some of the done ones are only last known.
    public var lastKnownOfThem: @Sendable (Int) -> String
    public var lastKnownNote: String
    public var allChaptersDone: @Sendable (Int) -> String
    /// "Next:" and how to work on the chapter.
    public var nextStep:
        @Sendable (_ number: String, _ title: String, _ reading: String, _ testsModified: Bool) -> String

    // MARK: `check`

    public var checkHeader: @Sendable (_ number: String, _ title: String, _ status: String) -> String
    public var allTestsPass: @Sendable (_ tests: Int, _ number: String) -> String
    public var filesDiffer: String
    public var putThemBack: String
    public var compilerErrors: String
    public var fixCompileErrorsFirst: @Sendable (_ number: String) -> String
    public var noResult: @Sendable (_ reason: String) -> String
    /// A failing test with no recorded issue.
    public var processStoppedInTest: String
    public var checkHint: @Sendable (_ number: Int, _ count: Int, _ text: String) -> String
    public var moreHints: @Sendable (_ chapter: String) -> String
    public var readLine: @Sendable (_ reading: String) -> String
    public var sectionLine: @Sendable (_ section: String) -> String
    /// Under a lesson the catalog has no text for.
    public var untranslatedLesson: String
    public var allChaptersDoneCheck: @Sendable (Int) -> String
    public var raceSuggestion: @Sendable (_ number: String) -> String

    // MARK: `hint`

    /// The heading of a reading's hints section.
    public var hintsHeading: String
    public var hintLine: @Sendable (_ number: Int, _ count: Int, _ chapter: String, _ text: String) -> String
    public var nextHint: @Sendable (_ chapter: String) -> String
    public var lastHintSeeReadme: String
    public var lastHint: String
    public var noHints: @Sendable (_ folder: String) -> String

    // MARK: `watch`

    public var watchChecking: @Sendable (_ folder: String) -> String
    public var watchPasses: @Sendable (_ folder: String) -> String
    public var watchNoLongerPasses: @Sendable (_ folder: String) -> String
    public var watchWatching: @Sendable (_ folder: String) -> String
    public var watchChanged: @Sendable (_ names: String, _ folder: String) -> String
    public var watchAllDone: @Sendable (Int) -> String

    // MARK: Tamper findings

    public var tamperHeader: String
    public var tamperSentence: @Sendable (TamperFindings.Finding) -> String
    public var tamperUndoLead: @Sendable (TamperFindings.Finding) -> String
    public var maintainerRecords: String
    public var copyBackFromFreshCopy: @Sendable (_ path: String) -> String

    // MARK: Build failures

    /// "chapter 05" / "chapters 05 and 07" / "the workbook".
    public var culprit: @Sendable (_ numbers: [String]) -> String
    public var buildFailedNoChapter: String
    public var buildSummary:
        @Sendable (
            _ culprit: String, _ otherFiles: [String], _ plural: Bool, _ checking: String?, _ checkingIsBroken: Bool
        ) -> String
    public var buildNextStepNoChapter: @Sendable (_ files: [String]) -> String
    public var buildNextStep: @Sendable (_ number: String, _ title: String, _ reading: String) -> String
    public var buildLogTail: String
    public var teachesError: @Sendable (_ chapter: String, _ section: String, _ reading: String) -> String
    public var compilerExplains: @Sendable (_ group: String, _ url: String) -> String
    public var moreErrors: @Sendable (Int) -> String

    // MARK: The tool

    public var noWorkbookHere: String
    public var usingWorkbookAt: @Sendable (_ path: String) -> String
    public var stopped: String
    public var helpOverview: String
    /// The help of one command; nil: the English text.
    public var helpText: @Sendable (CommandName) -> String?
}

extension Strings {
    public static let english = Strings(
        language: .english,
        tableHeader: ["#", "Chapter", "Status", "Concept"],
        status: { $0.label },
        chaptersDone: { "\($0)/\($1) chapters done" },
        lastKnownOfThem: { " (\($0) of them last known)" },
        lastKnownNote: "Statuses marked (last known) are from the last run that built.\n",
        allChaptersDone: { "All \($0) chapters done. Well done!\n" },
        nextStep: { number, title, reading, testsModified in
            var text = "Next: chapter \(number), \(title)\n"
            if testsModified {
                text +=
                    "  Files its result depends on were changed (see above), so it can't be done. Put them back first.\n"
            }
            text += "  Read:  \(reading)\n"
            text += "  Run:   swift run workbook check \(number)\n"
            text += "  Or re-check on every save:  swift run workbook watch \(number)\n"
            return text
        },
        checkHeader: { "Chapter \($0): \($1)\nStatus: \($2)\n\n" },
        allTestsPass: { "✓ All \($0) tests pass. Chapter \($1) is done.\n" },
        filesDiffer: "These files differ from the recorded ones, so the chapter's result does not count:\n",
        putThemBack: "Put them back, then check again.\n",
        compilerErrors: "The compiler's errors:\n",
        fixCompileErrorsFirst: {
            "\nFix these first: exercises must compile before any test can run (all chapters build together).\n"
                + "Or put the original back:  swift run workbook reset \($0)\n"
        },
        noResult: { "No result: \($0).\n" },
        processStoppedInTest: "the test process stopped inside this test (a crash?)",
        checkHint: { "Hint \($0) of \($1): \($2)" },
        moreHints: { "  (more: swift run workbook hint \($0))\n" },
        readLine: { "Read: \($0)\n" },
        sectionLine: { "  section \"\($0)\"\n" },
        untranslatedLesson: "",
        allChaptersDoneCheck: {
            "All \($0) chapters are done. Name one to check it again: swift run workbook check 01\n"
        },
        raceSuggestion: {
            "\nThis chapter is about shared state, and a data race fails no test. To look for one: "
                + "swift run workbook check \($0) --race (a separate Thread Sanitizer build)\n"
        },
        hintsHeading: "Hints",
        hintLine: { "Hint \($0) of \($1) for chapter \($2): \($3)" },
        nextHint: { "  (next: swift run workbook hint \($0))\n" },
        lastHintSeeReadme:
            "  That was the last hint. The chapter's README has the full walk-through under \"Hints\".\n",
        lastHint: "  That was the last hint.\n",
        noHints: { "Chapter \($0) has no hints.\n" },
        watchChecking: { "\n── Checking chapter \($0) ──\n" },
        watchPasses: { "Chapter \($0) passes. Moving on to the next chapter that is not done…\n" },
        watchNoLongerPasses: { "Chapter \($0) changed and no longer passes: staying on it.\n" },
        watchWatching: { "Watching \($0)/: save a file to check again (Ctrl-C to quit).\n" },
        watchChanged: { "↻ \($0) changed: checking chapter \($1) again…\n" },
        watchAllDone: { "All \($0) chapters are done. Nothing left to watch.\n" },
        tamperHeader: "Files the results depend on were changed, so the chapters they affect can't be done:\n",
        tamperSentence: { $0.englishSentence },
        tamperUndoLead: { $0.englishUndoLead },
        maintainerRecords: "a maintainer records it with `swift run workbook hashes --update`",
        copyBackFromFreshCopy: { "copy \($0) back from a fresh copy of the workbook" },
        culprit: { numbers in
            switch numbers.count {
            case 0: "the workbook"
            case 1: "chapter \(numbers[0])"
            default: "chapters \(numbers.dropLast().joined(separator: ", ")) and \(numbers.last!)"
            }
        },
        buildFailedNoChapter: "The build failed, so no chapter could be re-checked.",
        buildSummary: { culprit, otherFiles, plural, checking, checkingIsBroken in
            let verb = plural ? "do not compile" : "does not compile"
            var subject = culprit
            if !otherFiles.isEmpty { subject += " (errors in \(otherFiles.prefix(3).joined(separator: ", ")))" }
            subject = subject.prefix(1).uppercased() + subject.dropFirst()
            let what: String
            if checkingIsBroken {
                what = "so its tests can't run"
            } else if let checking {
                what = "so chapter \(checking) could not be re-checked either"
            } else {
                what = "so no chapter could be re-checked"
            }
            return "\(subject) \(verb), \(what). All chapters build together, so one compile error stops every test."
        },
        buildNextStepNoChapter: { files in
            let location = files.isEmpty ? "" : " in \(files.prefix(3).joined(separator: ", "))"
            return "Next: make the workbook build again: fix the errors below\(location), or undo those edits.\n"
        },
        buildNextStep: { number, title, reading in
            "Next: chapter \(number), \(title): it does not compile.\n"
                + "  Fix the errors below, or put the original back:  swift run workbook reset \(number)\n"
                + "  Read:  \(reading)\n"
        },
        buildLogTail: "The build failed. The end of its output:\n",
        teachesError: { "Chapter \($0) teaches this error: see '\($1)' in \($2)." },
        compilerExplains: { "→ The compiler explains [#\($0)]: \($1)\n" },
        moreErrors: { "\n… and \($0) more errors.\n" },
        noWorkbookHere:
            "workbook: no workbook here: run it inside the workbook folder (the one with Package.swift and Chapters/curriculum.json)\n",
        usingWorkbookAt: { "Using the workbook at \($0)\n" },
        stopped: "\nStopped.\n",
        helpOverview: Help.overview,
        helpText: { _ in nil }
    )
}
