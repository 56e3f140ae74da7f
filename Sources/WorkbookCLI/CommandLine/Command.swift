/// What the learner asked for on the command line, before any chapter name is resolved.
public enum Command: Equatable, Sendable {
    /// The chapter table, the progress bar and the next step. The default.
    case list
    /// Runs one chapter's tests and explains what fails; without a chapter, the current one
    /// (the first not done).
    case check(chapter: String?)
    /// Runs one chapter's tests under Thread Sanitizer and explains each data race
    /// (`check [chapter] --race`); without a chapter, the current one.
    case raceCheck(chapter: String?)
    /// Shows the next hint, or hint `number`; without a chapter, for the current one.
    case hint(chapter: String?, number: Int?)
    /// Re-checks a chapter on every save, moving on when it passes.
    case watch(chapter: String?)
    /// Restores a chapter's exercise files after backing up the learner's.
    case reset(chapter: String)
    /// The teacher/CI check: `scripts/verify`, with its options.
    case verify(options: [String])
    /// Writes a copy of the workbook without solutions into a new folder.
    case studentEdition(directory: String)
    /// Compares (or, with `update`, records) the hashes of the tests and shared instruments.
    case hashes(update: Bool)
    /// One learner run as a JSON, JUnit or Markdown report (see ``WorkbookReport``).
    case report(ReportOptions)
    /// Grades student checkouts against this workbook's tests (see ``ClassGrading``).
    case grade(GradeOptions)
    /// Help on one command, or on all of them.
    case help(CommandName?)
}

/// The name a command is typed as.
public enum CommandName: String, CaseIterable, Sendable {
    case list, check, hint, watch, reset, verify
    case studentEdition = "student-edition"
    case hashes, report, grade, help

    /// The valid names, for error messages.
    public static var choices: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// A command line that cannot be run: its message is one line, and the exit code is 2.
/// A learner's command words it from the catalog (`id` and its parameters) in the learner's
/// language; a teacher's command gives its English message as it is.
public struct UsageError: Error, Equatable, Sendable {
    /// The message in English.
    public let message: String
    /// The catalog message, for a learner's command (nil: `message`, in every language).
    public let id: String?
    public let parameters: [String: String]

    /// A teacher's usage error: English whatever the language.
    public init(_ message: String) {
        self.message = message
        id = nil
        parameters = [:]
    }

    /// A learner's usage error: message `id` of the catalog.
    public init(id: String, _ parameters: [String: any Sendable] = [:]) {
        self.id = id
        self.parameters = parameters.mapValues { "\($0)" }
        message = Catalog.english.text(id, self.parameters)
    }

    /// The same error, in English whatever the language (a teacher's command).
    var inEnglish: UsageError { UsageError(message) }

    /// The message in `language`.
    public func message(in language: Language) -> String {
        id.map { language.catalog.text($0, parameters) } ?? message
    }

    /// The message in Korean (nil: the English one).
    public var korean: String? { id.map { Language.korean.catalog.text($0, parameters) } }
}

extension Command {
    /// Whether the command is one of the learner's, which speak the chosen language; the
    /// teacher's (`report`, `grade`, `verify`, `hashes`, `student-edition`) and `check --race`
    /// speak English.
    public var isForLearners: Bool {
        switch self {
        case .list, .check, .hint, .watch, .reset, .help: true
        case .raceCheck, .verify, .studentEdition, .hashes, .report, .grade: false
        }
    }

    /// The commands whose usage errors speak the learner's language.
    static let learnerCommands: Set<CommandName> = [.list, .check, .hint, .watch, .reset, .help]

    /// Parses the arguments after the program name. Hand-rolled: one command, its
    /// positional arguments, and `--help`/`-h` anywhere.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        guard let first = arguments.first else { return .list }
        if first == "--help" || first == "-h" { return .help(nil) }
        guard let name = CommandName(rawValue: first) else {
            throw UsageError(id: "usage.unknownCommand", ["command": first, "choices": CommandName.choices])
        }
        var rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") { return .help(name) }

        // Only the learner's commands speak the learner's language.
        let learner = Command.learnerCommands.contains(name)
        func usage(_ id: String, _ parameters: [String: any Sendable]) -> UsageError {
            let error = UsageError(id: id, parameters.merging(["command": name.rawValue]) { $1 })
            return learner ? error : error.inEnglish
        }
        func take(_ what: String) throws(UsageError) -> String {
            guard let value = rest.first else { throw usage("usage.missing", ["what": what]) }
            if value.hasPrefix("-") { throw usage("usage.unknownOption", ["value": value]) }
            rest.removeFirst()
            return value
        }
        func done() throws(UsageError) {
            if let extra = rest.first { throw usage("usage.unexpectedArgument", ["value": extra]) }
        }

        let command: Command
        switch name {
        case .list:
            command = .list
        case .check:
            let race = rest.contains("--race")
            rest.removeAll { $0 == "--race" }
            let chapter = rest.isEmpty ? nil : try take("[chapter]")
            command = race ? .raceCheck(chapter: chapter) : .check(chapter: chapter)
        case .hint:
            let chapter = rest.isEmpty ? nil : try take("[chapter]")
            var number: Int?
            if !rest.isEmpty {
                let text = try take("[n]")
                // A number out of the chapter's range (0 too) is refused by `hint`, which knows the range.
                guard let value = Int(text) else { throw UsageError(id: "usage.hintNumber", ["value": text]) }
                number = value
            }
            command = .hint(chapter: chapter, number: number)
        case .watch:
            command = .watch(chapter: rest.isEmpty ? nil : try take("[chapter]"))
        case .reset:
            command = .reset(chapter: try take("<chapter>"))
        case .verify:
            // Options go to scripts/verify, which documents them; the session checks them
            // against its --help (see VerifyOptions).
            if let argument = rest.first(where: { !$0.hasPrefix("--") }) {
                throw UsageError("verify: unexpected argument '\(argument)' (see: workbook verify --help)")
            }
            command = .verify(options: rest)
            rest = []
        case .studentEdition:
            command = .studentEdition(directory: try take("<dir>"))
        case .hashes:
            let update = rest.first == "--update"
            if update { rest.removeFirst() }
            command = .hashes(update: update)
        case .report:
            command = .report(try ReportOptions.parse(rest))
            rest = []
        case .grade:
            command = .grade(try GradeOptions.parse(rest))
            rest = []
        case .help:
            if rest.isEmpty { return .help(nil) }
            let topic = try take("[command]")
            guard let topicName = CommandName(rawValue: topic) else {
                throw UsageError(id: "usage.helpTopic", ["topic": topic, "choices": CommandName.choices])
            }
            command = .help(topicName)
        }
        try done()
        return command
    }
}
