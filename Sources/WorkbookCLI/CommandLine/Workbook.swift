import Foundation
import WorkbookCurriculum

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `workbook` command: parses the arguments and runs one command.
public struct Workbook {
    /// Where text goes. Written unbuffered, so a script reading the output sees each line at once.
    public var out: @Sendable (String) -> Void
    public var err: @Sendable (String) -> Void
    /// Where the command runs; the workbook is found at or above it.
    public var workingDirectory: URL
    /// The running `workbook` binary. Outside any workbook (`swift run --package-path DIR
    /// workbook`), the workbook is the one the binary was built in.
    public var executable: URL?
    /// Whether `err` reaches a terminal: build progress is then one line redrawn in place.
    public var interactive: Bool
    /// The width to wrap long messages to; nil does not wrap.
    public var width: Int?
    /// The width of the terminal `err` reaches, which the redrawn progress line must not
    /// reach (`swift run workbook > file` still draws it there); nil: `width`.
    public var progressWidth: Int?
    /// The environment, for the language (`WORKBOOK_LANG`, `LC_ALL`, `LC_MESSAGES`, `LANG`).
    public var environment: [String: String]

    public init(
        workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        executable: URL? = nil,
        interactive: Bool = false,
        width: Int? = nil,
        progressWidth: Int? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        // `try?`: a closed terminal or pipe must not end the tool before it has stopped its children.
        out: @escaping @Sendable (String) -> Void = { try? FileHandle.standardOutput.write(contentsOf: Data($0.utf8)) },
        err: @escaping @Sendable (String) -> Void = { try? FileHandle.standardError.write(contentsOf: Data($0.utf8)) }
    ) {
        self.workingDirectory = workingDirectory
        self.executable = executable
        self.interactive = interactive
        self.width = width
        self.progressWidth = progressWidth
        self.environment = environment
        self.out = out
        self.err = err
    }

    /// The workbook for the real command line: the binary's own path, stderr's terminal, the
    /// widths of the terminals stdout and stderr reach.
    public static func forCommandLine() -> Workbook {
        Workbook(
            executable: Bundle.main.executableURL, interactive: isatty(STDERR_FILENO) != 0,
            width: TextWrap.terminalWidth(), progressWidth: TextWrap.terminalWidth(of: STDERR_FILENO))
    }

    /// Runs the command line (without the program name) and returns the exit code:
    /// 0 success, 1 failing or refused, 2 a command line that cannot be run, 128 + the
    /// signal when interrupted (130 for Ctrl-C).
    public func run(_ arguments: [String]) -> Int32 {
        // Before --lang is read (a bad --lang), the environment's language speaks.
        var strings = Language.from(environment: environment).strings
        do {
            let (language, arguments) = try Language.choose(arguments: arguments, environment: environment)
            strings = language.strings
            let (limits, rest, limitsGiven) = try RunLimits.extract(from: arguments)
            let command = try Command.parse(rest)
            try RunLimits.check(limitsGiven, for: command)
            // Teacher commands speak English whatever the language.
            if !command.isForLearners { strings = .english }
            Interrupts.shared.sayWhenStopped(strings.stopped)
            if case .help(let topic) = command {
                out((topic.map { strings.helpText($0) ?? Help.text(for: $0) } ?? strings.helpOverview) + "\n")
                return 0
            }
            var found = PackageLayout.find(from: workingDirectory)
            if found == nil, let executable, let layout = PackageLayout.find(from: executable.resolvingSymlinksInPath())
            {
                err(strings.usingWorkbookAt(layout.root.path))
                found = layout
            }
            guard let layout = found else {
                err(strings.noWorkbookHere)
                return 2
            }
            let write = err
            var curriculum = try layout.loadCurriculum()
            var lessons: LessonTranslator?
            if strings.language != .english {
                let translation = try Translation.load(
                    code: strings.language.rawValue, packageRoot: layout.root, curriculum: curriculum)
                curriculum = translation.apply(to: curriculum)
                let root = layout.root
                lessons = LessonTranslator(translation: translation) { path in
                    try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
                }
            }
            var session = Session(
                layout: layout, workingDirectory: workingDirectory, curriculum: curriculum, out: out,
                err: err, width: width,
                progress: BuildProgress.Display(
                    write: write, interactive: interactive, language: strings.language,
                    width: progressWidth ?? width))
            session.limits = limits
            session.strings = strings
            session.lessons = lessons
            return try session.run(command)
        } catch let error as UsageError {
            err("workbook: \(error.message(in: strings.language))\n")
            return 2
        } catch let interrupted as Interrupted {
            err(strings.stopped)
            return 128 + interrupted.signal
        } catch {
            err("workbook: \(error)\n")
            return 1
        }
    }
}

/// One command run against one workbook checkout.
struct Session {
    let layout: PackageLayout
    /// Where the command was run; relative paths on the command line start here.
    let workingDirectory: URL
    let curriculum: Curriculum
    let out: @Sendable (String) -> Void
    let err: @Sendable (String) -> Void
    /// The width to wrap long messages to; nil does not wrap.
    var width: Int? = nil
    /// Where build progress goes.
    var progress: BuildProgress.Display? = nil
    /// The limits of every test run the command makes.
    var limits = RunLimits()
    /// The language of what the learner's commands print.
    var strings = Strings.english
    /// Shows failure messages in the learner's language (nil: as recorded, in English).
    var lessons: LessonTranslator?

    func run(_ command: Command) throws -> Int32 {
        switch command {
        case .list: return try list()
        case .check(let name?): return try checkPointingOn(chapter(named: name)).isDone ? 0 : 1
        case .check(nil): return try checkCurrent().isDone ? 0 : 1
        case .raceCheck(let name?): return try raceCheck(chapter(named: name))
        case .raceCheck(nil): return try raceCheck(currentChapter())
        case .hint(let name?, let number): return try hint(chapter(named: name), number: number)
        case .hint(nil, let number): return try hint(currentChapter(), number: number)
        case .watch(let name): return try watch(name.map(chapter(named:)))
        case .reset(let name): return try reset(chapter(named: name))
        case .verify(let options): return try verify(options)
        case .studentEdition(let directory): return try studentEdition(directory)
        case .hashes(let update): return try hashes(update: update)
        case .report(let options): return try report(options)
        case .grade(let options): return try grade(options)
        case .help: return 0
        }
    }

    /// A chapter by number, folder or module name, or a one-line error listing the choices.
    func chapter(named name: String) throws(UsageError) -> Curriculum.Chapter {
        if let chapter = curriculum.chapter(named: name) { return chapter }
        let folders = curriculum.chapters.map(\.folder).joined(separator: ", ")
        throw UsageError(
            id: curriculum.chapters.isEmpty ? "usage.noChapter" : "usage.noChapter.range",
            ["name": name, "folders": folders, "count": curriculum.chapters.count])
    }

    /// The comparison with `Chapters/test-hashes.json`, or nil if the checkout has none.
    func tamperReport() throws -> TamperReport? {
        try TestHashes.load(from: layout)?.compare(with: TestHashes.compute(for: curriculum, in: layout))
    }

    func say(_ text: String) { err(TextWrap.wrap(text, width: width) + "\n") }

    /// Runs the learner build for `chapters` and returns their statuses. A run that built
    /// records them in `.workbook/status.json`; a run that did not shows the last known ones.
    func statuses(of chapters: [Curriculum.Chapter]) throws -> (statuses: [String: ChapterStatus], run: LearnerRun) {
        TestHashes.computeAhead(for: curriculum, in: layout)
        let run = try LearnerRun.perform(
            for: chapters, in: layout, limits: limits, language: strings.language, say: say,
            progress: progress)
        return (try statuses(of: chapters, from: run), run)
    }

    /// The statuses of `chapters` from `run`, with the last known ones filled in if it did not build.
    func statuses(of chapters: [Curriculum.Chapter], from run: LearnerRun) throws -> [String: ChapterStatus] {
        let statuses = run.statuses(of: chapters, curriculum: curriculum, tamper: try tamperReport())
        let fingerprints = Dictionary(
            uniqueKeysWithValues: chapters.map { ($0.folder, LastKnownStatus.fingerprint(of: $0, in: layout)) })
        var known = LastKnownStatus.load(from: layout.stateURL)
        guard run.run != nil else { return known.fillIn(statuses, fingerprints: fingerprints) }
        known.record(statuses, fingerprints: fingerprints)
        try? known.save(to: layout.stateURL)
        return statuses
    }

    /// The edits that void results, in words, with how to undo each.
    func tamperFindings() throws -> TamperFindings? {
        guard let report = try tamperReport() else { return nil }
        return TamperFindings.from(report, curriculum: curriculum, strings: strings) { path, hash in
            GitHistory.restoreCommand(for: path, sha256: hash, in: layout)
        }
    }

    func list() throws -> Int32 {
        let (statuses, run) = try statuses(of: curriculum.chapters)
        let failure = run.buildFailure(curriculum: curriculum)
        out(
            ProgressReport.render(
                curriculum, statuses: statuses, buildFailure: failure, tamper: try tamperFindings(), width: width,
                strings: strings))
        if failure != nil { return 1 }
        if let trouble = run.troubleReport {
            out("\n" + trouble)
            return 1
        }
        return 0
    }

    /// The chapter to work on: the first not done, by the last known statuses (or, with none
    /// recorded yet, by a run of every chapter). Nil when all are done.
    func currentChapter() throws -> Curriculum.Chapter {
        let known = LastKnownStatus.load(from: layout.stateURL)
        let statuses: [String: ChapterStatus] =
            known.chapters.isEmpty ? try statuses(of: curriculum.chapters).statuses : known.chapters.mapValues(\.status)
        guard let chapter = curriculum.chapters.first(where: { statuses[$0.folder]?.isDone != true }) else {
            throw UsageError(id: "usage.allDone")
        }
        return chapter
    }

    /// `check` without a chapter: runs every chapter once and checks the first not done.
    func checkCurrent() throws -> ChapterStatus {
        let (statuses, run) = try statuses(of: curriculum.chapters)
        guard let chapter = curriculum.chapters.first(where: { statuses[$0.folder]?.isDoneOrLastKnownDone != true })
        else {
            out(strings.allChaptersDoneCheck(curriculum.chapters.count))
            return .done(tests: 0)
        }
        return try check(chapter, reusing: run)
    }

    /// Checks `chapter`, reusing `earlier` (a run that included it) instead of running again.
    func check(_ chapter: Curriculum.Chapter, reusing earlier: LearnerRun? = nil) throws -> ChapterStatus {
        try checkRun(chapter, reusing: earlier).status
    }

    /// `check`: ``check(_:reusing:)``, then, when the chapter passes, the chapter to work on next.
    func checkPointingOn(_ chapter: Curriculum.Chapter) throws -> ChapterStatus {
        let status = try check(chapter)
        if status.isDone {
            let known = LastKnownStatus.load(from: layout.stateURL).chapters.mapValues(\.status)
            out(
                "\n"
                    + CheckReport.nextAfterPass(
                        chapter, curriculum: curriculum, known: known, width: width, strings: strings))
        }
        return status
    }

    /// ``check(_:reusing:)``, also returning the run the verdict came from.
    func checkRun(_ chapter: Curriculum.Chapter, reusing earlier: LearnerRun? = nil) throws -> (
        status: ChapterStatus, run: LearnerRun
    ) {
        if earlier == nil { TestHashes.computeAhead(for: curriculum, in: layout) }
        let run =
            try earlier
            ?? LearnerRun.perform(
                for: [chapter], in: layout, limits: limits, language: strings.language, say: say,
                progress: progress)
        let status =
            try statuses(of: [chapter], from: run)[chapter.folder]
            ?? .noResult(reason: Catalog.english("reason.noTestsRan"))
        var shownHint: CheckReport.ShownHint?
        switch status {
        case .failing, .notStarted: if run.run != nil { shownHint = chooseHint(for: chapter, run: run) }
        default: break
        }
        out(
            CheckReport.render(
                chapter, status: status, run: run.run, buildFailure: run.buildFailure(curriculum: curriculum),
                tamper: try tamperFindings()?.affecting(chapter.folder) ?? [], hint: shownHint, width: width,
                strings: strings, lessons: lessons))
        if case .noResult = status, let trouble = run.troubleReport {
            out(trouble)
        } else if let stop = run.stopReport {
            out("\n" + stop)
        }
        if status.isDone, chapter.raceSection != nil {
            out(strings.raceSuggestion(String(chapter.folder.prefix(2))))
        }
        return (status, run)
    }

    /// The hint `check` shows for the chapter's failures in `run`, recorded as seen.
    func chooseHint(for chapter: Curriculum.Chapter, run: LearnerRun) -> CheckReport.ShownHint? {
        var state = HintState.load(from: layout.stateURL)
        let failures = run.run?.tests(inModule: chapter.testTarget).filter(\.failed).flatMap(\.issues) ?? []
        guard let number = state.hintForCheck(chapter, failures: failures) else { return nil }
        try? state.save(to: layout.stateURL)
        return CheckReport.ShownHint(number: number, more: state.firstUnseen(of: chapter) != nil)
    }

    func hint(_ chapter: Curriculum.Chapter, number: Int?) throws -> Int32 {
        if let error = HintState.outOfRange(number, of: chapter) { throw error }
        var state = HintState.load(from: layout.stateURL)
        guard let shown = state.nextHint(for: chapter, number: number) else {
            out(strings.noHints(chapter.folder))
            return 0
        }
        try state.save(to: layout.stateURL)
        let readme = try? String(contentsOf: layout.url(chapter.readmePath), encoding: .utf8)
        out(
            HintState.render(
                chapter, number: shown,
                readmeHasHints: HintState.readmeHasHints(readme, strings: strings), width: width, strings: strings))
        return 0
    }
}
