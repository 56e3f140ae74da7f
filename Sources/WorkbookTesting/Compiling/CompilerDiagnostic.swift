import Foundation

/// One error or warning from a Swift compile, with its notes.
public struct CompilerDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious the compiler says it is.
    public enum Severity: String, Sendable, Hashable {
        case error, warning
    }

    /// A note the compiler attached to a diagnostic: where the other access is, or a suggested fix.
    public struct Note: Sendable, Hashable, CustomStringConvertible {
        /// The file's name, for example `PhotoLibrary.swift`.
        public let file: String
        public let line: Int
        public let message: String

        public var description: String { "\(file):\(line): note: \(message)" }
    }

    /// The file's name, for example `PhotoLibrary.swift`.
    public let file: String
    public let line: Int
    public let column: Int
    public let severity: Severity
    /// The compiler's message, without its diagnostic group.
    public let message: String
    /// The diagnostic group, for example `SendingRisksDataRace` (shown as `[#SendingRisksDataRace]`).
    public let group: String?
    public let notes: [Note]
    /// The learner's line of code the diagnostic points at, trimmed.
    public let sourceLine: String

    public init(
        file: String, line: Int, column: Int, severity: Severity, message: String, group: String?,
        notes: [Note] = [], sourceLine: String = ""
    ) {
        self.file = file
        self.line = line
        self.column = column
        self.severity = severity
        self.message = message
        self.group = group
        self.notes = notes
        self.sourceLine = sourceLine
    }

    /// The diagnostic as the compiler would show it: location, message, group, code line and notes.
    public var description: String {
        var text = "\(file):\(line):\(column): \(severity.rawValue): \(message)"
        if let group { text += " [#\(group)]" }
        if !sourceLine.isEmpty { text += "\n    \(sourceLine)" }
        for note in notes { text += "\n  \(note)" }
        return text
    }
}

extension CompilerDiagnostic {
    /// Parses the compiler's output in `-diagnostic-style llvm`: `path:line:col: severity: message [#Group]`
    /// lines, each followed by the code excerpt, and `note:` lines that belong to the diagnostic before them.
    /// Diagnostics in files other than `files` (absolute paths) are kept too, named by their last component.
    static func parse(llvmStyle output: String) -> [CompilerDiagnostic] {
        var diagnostics: [CompilerDiagnostic] = []
        var current: (head: Header, notes: [Note], sourceLine: String)?
        var expectingSourceLine = false
        func flush() {
            guard let (head, notes, sourceLine) = current else { return }
            diagnostics.append(
                CompilerDiagnostic(
                    file: head.file, line: head.line, column: head.column,
                    severity: head.severity == "warning" ? .warning : .error, message: head.message,
                    group: head.group, notes: notes, sourceLine: sourceLine))
            current = nil
        }
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let header = Header(String(line)) else {
                if expectingSourceLine, current != nil, current?.notes.isEmpty == true {
                    current?.sourceLine = String(line).trimmingCharacters(in: .whitespaces)
                }
                expectingSourceLine = false
                continue
            }
            expectingSourceLine = false
            switch header.severity {
            case "error", "warning":
                flush()
                current = (header, [], "")
                expectingSourceLine = true
            case "note":
                current?.notes.append(Note(file: header.file, line: header.line, message: header.message))
            default:
                continue
            }
        }
        flush()
        return diagnostics
    }

    /// The first line of one diagnostic or note.
    struct Header {
        let file: String
        let line: Int
        let column: Int
        let severity: String
        let message: String
        let group: String?

        init?(_ text: String) {
            // path:line:col: severity: message — the path may itself contain colons (Windows drives).
            guard
                let severityRange = ["error", "warning", "note", "remark"]
                    .compactMap({ text.range(of: ": \($0): ") })
                    .min(by: { $0.lowerBound < $1.lowerBound })
            else { return nil }
            let location = text[..<severityRange.lowerBound].split(separator: ":")
            guard location.count >= 3, let line = Int(location[location.count - 2]),
                let column = Int(location[location.count - 1])
            else { return nil }
            let path = location.dropLast(2).joined(separator: ":")
            file = String(path.split(separator: "/").last ?? Substring(path))
            self.line = line
            self.column = column
            severity = String(text[severityRange].dropFirst(2).dropLast(2))
            var message = String(text[severityRange.upperBound...])
            if message.hasSuffix("]"), let open = message.range(of: " [#", options: .backwards) {
                group = String(message[open.upperBound...].dropLast())
                message = String(message[..<open.lowerBound])
            } else {
                group = nil
            }
            self.message = message
        }
    }
}
