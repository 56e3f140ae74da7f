import Foundation
import WorkbookCurriculum

/// The `workbook` command: parses the arguments and runs one command.
public struct Workbook {
    /// Where text goes. Written unbuffered, so a script reading the output sees each line at once.
    public var out: @Sendable (String) -> Void
    public var err: @Sendable (String) -> Void
    /// Where the command runs; the workbook is found at or above it.
    public var workingDirectory: URL

    public init(
        workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        // `try?`: a closed terminal or pipe must not end the tool before it has stopped its children.
        out: @escaping @Sendable (String) -> Void = { try? FileHandle.standardOutput.write(contentsOf: Data($0.utf8)) },
        err: @escaping @Sendable (String) -> Void = { try? FileHandle.standardError.write(contentsOf: Data($0.utf8)) }
    ) {
        self.workingDirectory = workingDirectory
        self.out = out
        self.err = err
    }

    /// Runs the command line (without the program name) and returns the exit code:
    /// 0 success, 1 failing or refused, 2 a command line that cannot be run, 128 + the
    /// signal when interrupted (130 for Ctrl-C).
    public func run(_ arguments: [String]) -> Int32 {
        do {
            let (limits, arguments, limitsGiven) = try RunLimits.extract(from: arguments)
            let command = try Command.parse(arguments)
            try RunLimits.check(limitsGiven, for: command)
            if case .help(let topic) = command {
                out((topic.map(Help.text(for:)) ?? Help.overview) + "\n")
                return 0
            }
            guard let layout = PackageLayout.find(from: workingDirectory) else {
                err(
                    "workbook: no workbook here: run it inside the workbook folder (the one with Package.swift and Chapters/curriculum.json)\n"
                )
                return 2
            }
            var session = try Session(
                layout: layout, workingDirectory: workingDirectory, curriculum: layout.loadCurriculum(), out: out,
                err: err)
            session.limits = limits
            return try session.run(command)
        } catch let error as UsageError {
            err("workbook: \(error.message)\n")
            return 2
        } catch let interrupted as Interrupted {
            err("\nStopped.\n")
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
    /// The limits of every test run the command makes.
    var limits = RunLimits()

    func run(_ command: Command) throws -> Int32 {
        switch command {
        case .list: return try list()
        case .check(let name): return try check(chapter(named: name)).isDone ? 0 : 1
        case .hint(let name, let number): return try hint(chapter(named: name), number: number)
        case .watch(let name): return try watch(name.map(chapter(named:)))
        case .reset(let name): return try reset(chapter(named: name))
        case .verify(let options): return try verify(options)
        case .studentEdition(let directory): return try studentEdition(directory)
        case .hashes(let update): return try hashes(update: update)
        case .help: return 0
        }
    }

    /// A chapter by number, folder or module name, or a one-line error listing the choices.
    func chapter(named name: String) throws(UsageError) -> Curriculum.Chapter {
        if let chapter = curriculum.chapter(named: name) { return chapter }
        let range = curriculum.chapters.isEmpty ? "" : " (or a number 1-\(curriculum.chapters.count), or a module name)"
        throw UsageError(
            "no chapter '\(name)'; choose one of: \(curriculum.chapters.map(\.folder).joined(separator: ", "))\(range)")
    }

    /// The comparison with `Chapters/test-hashes.json`, or nil if the checkout has none.
    func tamperReport() throws -> TamperReport? {
        try TestHashes.load(from: layout)?.compare(with: TestHashes.compute(for: curriculum, in: layout))
    }

    func say(_ text: String) { err(text + "\n") }

    /// Runs the learner build for `chapters` and returns their statuses.
    func statuses(of chapters: [Curriculum.Chapter]) throws -> (statuses: [String: ChapterStatus], run: LearnerRun) {
        let run = try LearnerRun.perform(for: chapters, in: layout, limits: limits, say: say)
        return (run.statuses(of: chapters, curriculum: curriculum, tamper: try tamperReport()), run)
    }

    func list() throws -> Int32 {
        let (statuses, run) = try statuses(of: curriculum.chapters)
        out(ProgressReport.render(curriculum, statuses: statuses))
        if let trouble = run.troubleReport {
            out("\n" + trouble)
            return 1
        }
        return 0
    }

    /// Checks `chapter`, reusing `earlier` (a run that included it) instead of running again.
    func check(_ chapter: Curriculum.Chapter, reusing earlier: LearnerRun? = nil) throws -> ChapterStatus {
        try checkRun(chapter, reusing: earlier).status
    }

    /// ``check(_:reusing:)``, also returning the run the verdict came from.
    func checkRun(_ chapter: Curriculum.Chapter, reusing earlier: LearnerRun? = nil) throws -> (
        status: ChapterStatus, run: LearnerRun
    ) {
        let (statuses, run) =
            try earlier.map { ($0.statuses(of: [chapter], curriculum: curriculum, tamper: try tamperReport()), $0) }
            ?? statuses(of: [chapter])
        let status = statuses[chapter.folder] ?? .noResult(reason: "none of its tests ran")
        out(CheckReport.render(chapter, status: status, run: run.run, buildLog: run.log))
        if case .noResult = status, let trouble = run.troubleReport {
            out(trouble)
        } else if let stop = run.stopReport {
            out("\n" + stop)
        }
        return (status, run)
    }

    func hint(_ chapter: Curriculum.Chapter, number: Int?) throws -> Int32 {
        var state = HintState.load(from: layout.stateURL)
        guard let shown = state.nextHint(for: chapter, number: number) else {
            out("Chapter \(chapter.folder) has no hints.\n")
            return 0
        }
        try state.save(to: layout.stateURL)
        out(HintState.render(chapter, number: shown, requested: number))
        return 0
    }
}
