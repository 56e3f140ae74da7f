import WorkbookCurriculum

/// Everything the learner's commands print, in one language, from the language's ``Catalog``
/// (`Text/Catalogs/<code>.json`). Chapter titles, concepts, hints and lessons come from the
/// curriculum and the lesson catalogs instead (see ``Translation`` and ``LessonTranslator``).
/// The English catalog is the tool's output byte for byte: scripts/test-workbook-cli and the
/// README compare it.
public struct Strings: Sendable {
    public var language: Language
    /// The catalog every text comes from.
    public var catalog: Catalog

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
    /// A failing test, by its name in the test source.
    public var failingTest: @Sendable (_ name: String) -> String
    /// A failing test, by its translated name and its name in the test source.
    public var failingTestTranslated: @Sendable (_ name: String, _ english: String) -> String
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
    public static let english = Strings(catalog: .english, language: .english)
    public static let korean = Strings(catalog: Language.korean.catalog, language: .korean)

    /// The texts of `catalog`, for `language`.
    public init(catalog text: Catalog, language: Language) {
        @Sendable func status(_ shown: ChapterStatus) -> String {
            switch shown {
            case .done: text("status.done")
            case .failing(let failed, let total): text("status.failing", ["failed": failed, "total": total])
            case .notStarted: text("status.notStarted")
            case .testsModified: text("status.testsModified")
            case .doesNotCompile: text("status.doesNotCompile")
            case .lastKnown(let inner, let editedSince):
                text(editedSince ? "status.lastKnownEditedSince" : "status.lastKnown", ["status": status(inner)])
            case .noResult: text("status.noResult")
            }
        }
        // The reasons ChapterStatus gives are English data; the catalog words them.
        let reasons = Dictionary(
            Catalog.english.messages.keys.filter { $0.hasPrefix("reason.") }.map { (Catalog.english($0), $0) },
            uniquingKeysWith: { first, _ in first })
        @Sendable func chapterList(_ numbers: [String]) -> String {
            guard let last = numbers.last else { return text("build.culprit.workbook") }
            return text(
                "chapters.list",
                [
                    "count": numbers.count, "last": last, "list": numbers.dropLast().joined(separator: ", "),
                ])
        }
        self.init(
            language: language,
            catalog: text,
            tableHeader: ["list.header.number", "list.header.chapter", "list.header.status", "list.header.concept"]
                .map { text($0) },
            status: status,
            chaptersDone: { text("list.chaptersDone", ["done": $0, "total": $1]) },
            lastKnownOfThem: { text("list.lastKnownOfThem", ["count": $0]) },
            lastKnownNote: text("list.lastKnownNote"),
            allChaptersDone: { text("list.allChaptersDone", ["count": $0]) },
            nextStep: { number, title, reading, testsModified in
                text("list.next", ["number": number, "title": title])
                    + (testsModified ? text("list.next.testsModified") : "")
                    + text("list.next.read", ["reading": reading]) + text("list.next.run", ["number": number])
                    + text("list.next.watch", ["number": number])
            },
            checkHeader: { text("check.header", ["number": $0, "title": $1, "status": $2]) },
            allTestsPass: { text("check.allTestsPass", ["count": $0, "number": $1]) },
            filesDiffer: text("check.filesDiffer"),
            putThemBack: text("check.putThemBack"),
            compilerErrors: text("check.compilerErrors"),
            fixCompileErrorsFirst: { text("check.fixCompileErrorsFirst", ["number": $0]) },
            noResult: { reason in text("check.noResult", ["reason": reasons[reason].map { text($0) } ?? reason]) },
            processStoppedInTest: text("check.processStoppedInTest"),
            failingTest: { text("check.failingTest", ["name": $0]) },
            failingTestTranslated: { text("check.failingTestTranslated", ["name": $0, "english": $1]) },
            checkHint: { text("check.hint", ["number": $0, "count": $1, "text": $2]) },
            moreHints: { text("check.moreHints", ["chapter": $0]) },
            readLine: { text("check.read", ["reading": $0]) },
            sectionLine: { text("check.section", ["section": $0]) },
            untranslatedLesson: text("check.untranslatedLesson"),
            allChaptersDoneCheck: { text("check.allChaptersDone", ["count": $0]) },
            raceSuggestion: { text("check.raceSuggestion", ["number": $0]) },
            hintsHeading: text("hint.heading"),
            hintLine: { text("hint.line", ["number": $0, "count": $1, "chapter": $2, "text": $3]) },
            nextHint: { text("hint.next", ["chapter": $0]) },
            lastHintSeeReadme: text("hint.lastSeeReadme"),
            lastHint: text("hint.last"),
            noHints: { text("hint.none", ["folder": $0]) },
            watchChecking: { text("watch.checking", ["folder": $0]) },
            watchPasses: { text("watch.passes", ["folder": $0]) },
            watchNoLongerPasses: { text("watch.noLongerPasses", ["folder": $0]) },
            watchWatching: { text("watch.watching", ["folder": $0]) },
            watchChanged: { text("watch.changed", ["names": $0, "folder": $1]) },
            watchAllDone: { text("watch.allDone", ["count": $0]) },
            tamperHeader: text("tamper.header"),
            tamperSentence: { $0.sentence(in: text) },
            tamperUndoLead: { $0.undoLead(in: text) },
            maintainerRecords: text("tamper.maintainerRecords"),
            copyBackFromFreshCopy: { text("tamper.copyBack", ["path": $0]) },
            culprit: { numbers in
                numbers.isEmpty ? text("build.culprit.workbook") : chapterList(numbers)
            },
            buildFailedNoChapter: text("build.failedNoChapter"),
            buildSummary: { culprit, otherFiles, plural, checking, checkingIsBroken in
                var subject = culprit
                if !otherFiles.isEmpty {
                    subject = text(
                        "build.errorsIn", ["subject": subject, "files": otherFiles.prefix(3).joined(separator: ", ")])
                }
                // A sentence starts with a capital letter (in a language that has them).
                subject = subject.prefix(1).uppercased() + subject.dropFirst()
                let what =
                    checkingIsBroken
                    ? text("build.summary.itsTestsCantRun")
                    : checking.map { text("build.summary.chapterNotRechecked", ["number": $0]) }
                        ?? text("build.summary.noneRechecked")
                return text("build.summary", ["subject": subject, "what": what, "count": plural ? 2 : 1])
            },
            buildNextStepNoChapter: { files in
                files.isEmpty
                    ? text("build.nextStepNoChapter")
                    : text("build.nextStepNoChapter.files", ["files": files.prefix(3).joined(separator: ", ")])
            },
            buildNextStep: { text("build.nextStep", ["number": $0, "title": $1, "reading": $2]) },
            buildLogTail: text("build.logTail"),
            teachesError: { text("build.teachesError", ["chapter": $0, "section": $1, "reading": $2]) },
            compilerExplains: { text("build.compilerExplains", ["group": $0, "url": $1]) },
            moreErrors: { text("build.moreErrors", ["count": $0]) },
            noWorkbookHere: text("tool.noWorkbookHere"),
            usingWorkbookAt: { text("tool.usingWorkbookAt", ["path": $0]) },
            stopped: text("tool.stopped"),
            helpOverview: text("help.overview"),
            helpText: { command in
                Command.learnerCommands.contains(command)
                    ? text("help.\(command.rawValue)", ["limits": Help.limits(in: text)]) : nil
            }
        )
    }
}
