import Foundation
import Testing

/// One Part II chapter's Swift 6 compile: the failing test is the compiler's own diagnostic.
///
/// The package builds a compile-check chapter's exercise in Swift 5 mode, so the workbook
/// always builds. Its tests compile the same files again, in Swift 6 language mode, with the
/// toolchain's `swiftc` in a child process (`-emit-sil`, because region-based isolation errors
/// come from SIL diagnostics), and turn each diagnostic into a ``Lesson``.
///
/// The files are those of the module the tests were built against: `Chapters/<folder>/`, or
/// `Solutions/<folder>/` in a build with the `Solutions` trait. The compile runs once per test
/// process and every test of the chapter shares its result; a later process with exactly the
/// same inputs reuses it from the build folder (``CompileResultStore``).
public struct Swift6Check: Sendable {
    /// The chapter folder, for example `13-SendableAndRegions`.
    public let chapter: String
    /// The module the files form, for example `Ch13SendableAndRegions`.
    public let module: String
    /// Extra compiler flags, mirroring the chapter's settings in `Package.swift`.
    public let flags: [String]
    /// The files compiled: those of the module the tests were built against.
    public let sources: ChapterSources

    /// - Parameters:
    ///   - folder: The chapter folder, for example `13-SendableAndRegions`.
    ///   - module: The exercise module's name, for example `Ch13SendableAndRegions`.
    ///   - flags: Extra `swiftc` flags that mirror the chapter's `chapterSettings` in `Package.swift`,
    ///     for example `["-enable-upcoming-feature", "NonisolatedNonsendingByDefault"]`.
    ///   - filePath: Leave the default: the calling test file, from which the workbook's root is found.
    public init(chapter folder: String, module: String, flags: [String] = [], filePath: String = #filePath) {
        chapter = folder
        self.module = module
        self.flags = flags
        sources = ChapterSources(chapter: folder, filePath: filePath)
    }

    /// A check of the files in `sourceFolder` (the instruments' own tests).
    init(chapter folder: String, module: String, flags: [String] = [], sourceFolder: URL) {
        chapter = folder
        self.module = module
        self.flags = flags
        sources = ChapterSources(folder: sourceFolder)
    }

    /// The Swift files compiled, sorted by path.
    public var sourceFiles: [URL] { sources.files }

    /// Every error and warning of the Swift 6 compile. `nil`, with a lesson recorded, when the
    /// compiler could not be found or run.
    public func diagnostics(sourceLocation: SourceLocation = #_sourceLocation) async -> [CompilerDiagnostic]? {
        switch await Swift6CompileCache.shared.outcome(of: self) {
        case .success(let diagnostics):
            return diagnostics
        case .failure(let failure):
            Lesson.compilerUnavailable(chapter: chapter).record(failure.description, sourceLocation: sourceLocation)
            return nil
        }
    }

    /// Records one issue per diagnostic in `file` (`nil`: in every file).
    ///
    /// The first of `lessons` that matches a diagnostic explains it; a diagnostic no lesson
    /// matches is recorded verbatim, as ``Lesson/unexplainedDiagnostic(chapter:)``. Each issue
    /// carries the compiler's text, its notes and group, and points at the learner's line.
    public func expectNoDiagnostics(
        in file: String? = nil, explainedBy lessons: [DiagnosticLesson],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        guard let diagnostics = await diagnostics(sourceLocation: sourceLocation) else { return }
        for diagnostic in diagnostics where file == nil || diagnostic.file == file {
            let lesson =
                lessons.first { $0.matches(diagnostic) }?.lesson
                ?? (diagnostic.severity == .error
                    ? Lesson.unexplainedDiagnostic(chapter: chapter) : Lesson.unexplainedWarning(chapter: chapter))
            lesson.record(
                "The Swift 6 compiler says:\n\(diagnostic)",
                sourceLocation: learnerLocation(of: diagnostic) ?? sourceLocation)
        }
    }

    /// The escape hatches in the compiled files (`file` nil: in all of them).
    public func escapeHatches(in file: String? = nil) -> [EscapeHatch] {
        sourceFiles.filter { file == nil || $0.lastPathComponent == file }.flatMap { url in
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [EscapeHatch]() }
            return EscapeHatch.scan(text, file: url.lastPathComponent)
        }
    }

    /// Line `line` of the learner's file `file`, as a source location Swift Testing (and editors)
    /// can show, so an issue points at the learner's code rather than at the test.
    public func learnerLocation(file: String, line: Int, column: Int = 1) -> SourceLocation? {
        guard let url = sourceFiles.first(where: { $0.lastPathComponent == file }) else { return nil }
        return SourceLocation(
            fileID: "\(module)/\(file)", filePath: url.path, line: max(line, 1), column: max(column, 1))
    }

    func learnerLocation(of diagnostic: CompilerDiagnostic) -> SourceLocation? {
        learnerLocation(file: diagnostic.file, line: diagnostic.line, column: diagnostic.column)
    }

    /// The compiler arguments of this chapter's Swift 6 compile.
    func compilerArguments() -> [String] {
        var arguments = [
            "-swift-version", "6", "-emit-sil", "-wmo", "-o", "/dev/null", "-parse-as-library",
            "-module-name", module, "-diagnostic-style", "llvm", "-no-color-diagnostics",
        ]
        if let modules = SwiftCompiler.modulesFolder { arguments += ["-I", modules] }
        return arguments + flags + sourceFiles.map(\.path)
    }
}

/// Which lesson explains a diagnostic: every criterion given must match.
public struct DiagnosticLesson: Sendable {
    /// The lesson recorded for a matching diagnostic.
    public let lesson: Lesson
    /// The file's name, for example `PhotoLibrary.swift`.
    public let file: String?
    /// The diagnostic group, for example `SendingRisksDataRace`.
    public let group: String?
    /// Text the message (or one of its notes) contains.
    public let text: String?

    public init(_ lesson: Lesson, file: String? = nil, group: String? = nil, containing text: String? = nil) {
        self.lesson = lesson
        self.file = file
        self.group = group
        self.text = text
    }

    /// Whether this lesson explains `diagnostic`.
    public func matches(_ diagnostic: CompilerDiagnostic) -> Bool {
        if let file, diagnostic.file != file { return false }
        if let group, diagnostic.group != group { return false }
        if let text, !diagnostic.message.contains(text),
            !diagnostic.notes.contains(where: { $0.message.contains(text) })
        {
            return false
        }
        return true
    }
}

/// Compiles each chapter once per process, however many tests ask, and reuses a compile an
/// earlier process made of exactly the same inputs (``CompileResultStore``).
actor Swift6CompileCache {
    static let shared = Swift6CompileCache(store: .shared)

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Where compiles are kept between processes; nil: nowhere.
    private let store: CompileResultStore?
    private var compiles: [[String]: Task<Result<[CompilerDiagnostic], Failure>, Never>] = [:]

    init(store: CompileResultStore?) {
        self.store = store
    }

    func outcome(of check: Swift6Check) async -> Result<[CompilerDiagnostic], Failure> {
        let arguments = check.compilerArguments()
        if let compile = compiles[arguments] { return await compile.value }
        let compile = Task { [store] in await Self.compile(arguments, files: check.sourceFiles, store: store) }
        compiles[arguments] = compile
        return await compile.value
    }

    private static func compile(
        _ arguments: [String], files: [URL], store: CompileResultStore?
    ) async -> Result<[CompilerDiagnostic], Failure> {
        guard !files.isEmpty else { return .failure(Failure(description: "no Swift files to compile")) }
        let inputs = { () -> Data? in
            guard store != nil, case .success(let command) = SwiftCompiler.command else { return nil }
            return CompileResultStore.inputs(
                command: command, arguments: arguments, files: files, modulesFolder: SwiftCompiler.modulesFolder)
        }
        let before = inputs()
        let run: SwiftCompiler.Run
        let stored = before.flatMap { store?.run(for: $0) }
        if let stored {
            run = stored
        } else {
            do {
                run = try await SwiftCompiler.run(arguments)
            } catch {
                return .failure(Failure(description: "the Swift compiler could not be run: \(error)"))
            }
        }
        let diagnostics = CompilerDiagnostic.parse(llvmStyle: run.output)
        if run.status != 0 && !diagnostics.contains(where: { $0.severity == .error }) {
            return .failure(
                Failure(
                    description:
                        "the Swift compiler stopped (status \(run.status)) without an error to show:\n\(run.output)"))
        }
        // Kept only if nothing it read changed while it ran.
        if stored == nil, let before, let store, before == inputs() { store.save(run, for: before) }
        return .success(diagnostics)
    }
}

extension Lesson {
    /// The Swift 6 compile reported an error no lesson of the chapter explains.
    public static func unexplainedDiagnostic(chapter: String) -> Lesson {
        Lesson(
            chapter: chapter, bug: "the exercise does not compile in the Swift 6 language mode",
            explanation:
                "the compiler reports an error this chapter's lessons don't cover; read it with its notes, and fix the code rather than silence the check",
            section: "When the Swift 6 compiler is the test", reading: "README.md")
    }

    /// The Swift 6 compile reported a warning no lesson of the chapter explains.
    public static func unexplainedWarning(chapter: String) -> Lesson {
        Lesson(
            chapter: chapter, bug: "the exercise compiles with a warning in the Swift 6 language mode",
            explanation: "a chapter is done when the Swift 6 compile is clean, warnings included",
            section: "When the Swift 6 compiler is the test", reading: "README.md")
    }

    /// The Swift 6 compile could not be run at all.
    public static func compilerUnavailable(chapter: String) -> Lesson {
        Lesson(
            chapter: chapter, bug: "the Swift 6 compile of the exercise could not be run",
            explanation:
                "this chapter's tests compile your files with the toolchain's swiftc, and that failed; nothing about your code is known yet",
            section: "When the Swift 6 compiler is the test", reading: "README.md")
    }
}
