/// The options of `workbook report`.
public struct ReportOptions: Equatable, Sendable {
    public enum Format: String, CaseIterable, Sendable {
        case json, junit, markdown
    }

    public var format: Format = .json
    /// Where to write the report; nil writes it to standard output.
    public var output: String?
    /// A JSON report to render again instead of running the tests.
    public var from: String?
    /// Exit with 1 when the report records tampering (for a CI job that fails only on that).
    public var failIfTampered = false

    public init(format: Format = .json, output: String? = nil, from: String? = nil, failIfTampered: Bool = false) {
        self.format = format
        self.output = output
        self.from = from
        self.failIfTampered = failIfTampered
    }

    /// Parses the arguments after `report`.
    static func parse(_ arguments: [String]) throws(UsageError) -> ReportOptions {
        var options = ReportOptions()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            let (name, inline) = splitOption(argument)
            switch name {
            case "--format":
                let value = try optionValue(name, inline: inline, rest: &rest, command: "report")
                guard let format = Format(rawValue: value) else {
                    throw UsageError(
                        "report: unknown format '\(value)'; choose one of: "
                            + Format.allCases.map(\.rawValue).joined(separator: ", "))
                }
                options.format = format
            case "--output":
                options.output = try optionValue(name, inline: inline, rest: &rest, command: "report")
            case "--from":
                options.from = try optionValue(name, inline: inline, rest: &rest, command: "report")
            case "--fail-if-tampered":
                options.failIfTampered = true
            default:
                throw unexpected(argument, command: "report")
            }
        }
        return options
    }
}

/// The options of `workbook grade`.
public struct GradeOptions: Equatable, Sendable {
    /// Student checkouts, or folders of them.
    public var directories: [String]
    /// Where the class table and the students' reports go; nil for `.workbook/grades/`.
    public var output: String?
    /// Run even as root (say, in a throwaway container).
    public var allowRoot = false
    /// The grading copy to use instead of `.build-grade/workbook`: a student edition already
    /// built, say, whose build the grading then reuses; nil for the default.
    public var workspace: String?

    public init(directories: [String], output: String? = nil, allowRoot: Bool = false, workspace: String? = nil) {
        self.directories = directories
        self.output = output
        self.allowRoot = allowRoot
        self.workspace = workspace
    }

    /// Parses the arguments after `grade`.
    static func parse(_ arguments: [String]) throws(UsageError) -> GradeOptions {
        var options = GradeOptions(directories: [])
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            let (name, inline) = splitOption(argument)
            switch name {
            case "--output":
                options.output = try optionValue(name, inline: inline, rest: &rest, command: "grade")
            case "--allow-root":
                options.allowRoot = true
            case "--workspace":
                options.workspace = try optionValue(name, inline: inline, rest: &rest, command: "grade")
            default:
                if argument.hasPrefix("-") { throw unexpected(argument, command: "grade") }
                options.directories.append(argument)
            }
        }
        if options.directories.isEmpty {
            throw UsageError(
                "grade: missing <dir> (a student checkout or a folder of them; see: workbook grade --help)")
        }
        return options
    }
}

/// `--name=value` → ("--name", "value"); anything else → (argument, nil).
private func splitOption(_ argument: String) -> (String, String?) {
    guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
}

private func optionValue(
    _ name: String, inline: String?, rest: inout ArraySlice<String>, command: String
) throws(UsageError) -> String {
    if let inline, !inline.isEmpty { return inline }
    guard inline == nil, let value = rest.popFirst(), !value.hasPrefix("--") else {
        throw UsageError("\(command): \(name) needs a value (see: workbook \(command) --help)")
    }
    return value
}

private func unexpected(_ argument: String, command: String) -> UsageError {
    argument.hasPrefix("-")
        ? UsageError("\(command): unknown option '\(argument)' (see: workbook \(command) --help)")
        : UsageError("\(command): unexpected argument '\(argument)' (see: workbook \(command) --help)")
}
