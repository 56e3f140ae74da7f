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
/// `korean` is the same message for a learner's command in Korean (nil: the English one).
public struct UsageError: Error, Equatable, Sendable {
    public let message: String
    public let korean: String?
    public init(_ message: String, korean: String? = nil) {
        self.message = message
        self.korean = korean
    }

    /// The message in `language`.
    public func message(in language: Language) -> String {
        language == .korean ? korean ?? message : message
    }
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
            throw UsageError(
                "unknown command '\(first)'; choose one of: \(CommandName.choices)",
                korean: "'\(first)' 명령은 없습니다. 다음 중에서 고르세요: \(CommandName.choices)")
        }
        var rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") { return .help(name) }

        // Only the learner's commands speak Korean.
        let korean = Command.learnerCommands.contains(name)
        func take(_ what: String) throws(UsageError) -> String {
            guard let value = rest.first else {
                throw UsageError(
                    "\(name.rawValue): missing \(what) (see: workbook \(name.rawValue) --help)",
                    korean: !korean ? nil : "\(name.rawValue): \(what)이(가) 빠졌습니다 (참고: workbook \(name.rawValue) --help)"
                )
            }
            if value.hasPrefix("-") {
                throw UsageError(
                    "\(name.rawValue): unknown option '\(value)' (see: workbook \(name.rawValue) --help)",
                    korean: !korean
                        ? nil : "\(name.rawValue): 알 수 없는 옵션 '\(value)' (참고: workbook \(name.rawValue) --help)")
            }
            rest.removeFirst()
            return value
        }
        func done() throws(UsageError) {
            if let extra = rest.first {
                throw UsageError(
                    "\(name.rawValue): unexpected argument '\(extra)' (see: workbook \(name.rawValue) --help)",
                    korean: !korean
                        ? nil : "\(name.rawValue): 예상하지 못한 인자 '\(extra)' (참고: workbook \(name.rawValue) --help)")
            }
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
                guard let value = Int(text), value > 0 else {
                    throw UsageError(
                        "hint: n must be a hint number such as 1 or 2, not '\(text)'",
                        korean: "hint: n은 1이나 2 같은 힌트 번호여야 합니다. 받은 값: '\(text)'")
                }
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
                throw UsageError(
                    "help: unknown command '\(topic)'; choose one of: \(CommandName.choices)",
                    korean: "help: '\(topic)' 명령은 없습니다. 다음 중에서 고르세요: \(CommandName.choices)")
            }
            command = .help(topicName)
        }
        try done()
        return command
    }
}
