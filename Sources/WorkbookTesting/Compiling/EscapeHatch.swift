import Foundation

/// A place where the learner's code switches a Swift 6 safety check off.
///
/// Found by a lexical scan (comments and string literals are ignored), so a chapter can name
/// the escape hatch and say what it hides, where a behaviour test can't see the bug every time.
public struct EscapeHatch: Sendable, Hashable, CustomStringConvertible {
    /// Which check is switched off.
    public enum Kind: String, Sendable, Hashable {
        /// `@unchecked Sendable`: the type promises it is safe to share, unchecked.
        case uncheckedSendable
        /// `nonisolated(unsafe)`: a variable shared with no isolation, unchecked.
        case nonisolatedUnsafe
        /// `@preconcurrency import`: the imported module's missing annotations are tolerated.
        case preconcurrencyImport
        /// `assumeIsolated`: a claim, checked only at run time, that the code already runs on an actor.
        case assumeIsolated
        /// `withUnsafe…Continuation`: a continuation whose misuse is not detected.
        case unsafeContinuation
    }

    public let kind: Kind
    /// The file's name, for example `Counter.swift`.
    public let file: String
    public let line: Int
    /// The learner's line of code, trimmed.
    public let sourceLine: String
    /// For ``Kind/uncheckedSendable``: the type that makes the promise.
    public let typeName: String?
    /// For ``Kind/uncheckedSendable``: the type's `var` stored properties.
    public let mutableProperties: [String]
    /// For ``Kind/uncheckedSendable``: whether the type's body holds a lock (`Mutex`, `NSLock`,
    /// `NSRecursiveLock`, `Locked`, `OSAllocatedUnfairLock`, `os_unfair_lock` or a `DispatchQueue`).
    public let holdsLock: Bool

    public var description: String { "\(file):\(line): \(sourceLine)" }

    /// The type names that count as a lock inside an `@unchecked Sendable` type.
    static let lockTypes = [
        "Mutex", "NSLock", "NSRecursiveLock", "Locked", "OSAllocatedUnfairLock", "os_unfair_lock", "DispatchQueue",
    ]

    /// The escape hatches in one file's source text.
    static func scan(_ text: String, file: String) -> [EscapeHatch] {
        let code = SwiftLexicalText(text)
        let lines = text.components(separatedBy: "\n")
        func hatch(_ kind: Kind, at offset: Int, type: String? = nil, vars: [String] = [], lock: Bool = false)
            -> EscapeHatch
        {
            let line = code.lineNumber(at: offset)
            return EscapeHatch(
                kind: kind, file: file, line: line,
                sourceLine: lines[line - 1].trimmingCharacters(in: .whitespaces), typeName: type,
                mutableProperties: vars, holdsLock: lock)
        }
        var found: [EscapeHatch] = []
        for offset in code.offsets(of: #"@unchecked\s+Sendable"#) {
            let declaration = code.enclosingDeclaration(before: offset)
            let body = declaration.flatMap { code.typeBody(named: $0.name, preferring: $0.bodyStart) } ?? ""
            found.append(
                hatch(
                    .uncheckedSendable, at: offset, type: declaration?.name,
                    vars: SwiftLexicalText.storedVars(in: body),
                    lock: lockTypes.contains { body.range(of: "\\b\($0)\\b", options: .regularExpression) != nil }))
        }
        for offset in code.offsets(of: #"nonisolated\s*\(\s*unsafe\s*\)"#) {
            found.append(hatch(.nonisolatedUnsafe, at: offset))
        }
        for offset in code.offsets(of: #"@preconcurrency\s+import\b"#) {
            found.append(hatch(.preconcurrencyImport, at: offset))
        }
        for offset in code.offsets(of: #"\.assumeIsolated\b"#) {
            found.append(hatch(.assumeIsolated, at: offset))
        }
        for offset in code.offsets(of: #"\bwithUnsafe(Throwing)?Continuation\b"#) {
            found.append(hatch(.unsafeContinuation, at: offset))
        }
        return found.sorted { ($0.line, $0.kind.rawValue) < ($1.line, $1.kind.rawValue) }
    }
}

/// Swift source with comments and string literals blanked out (newlines kept), for lexical scans.
struct SwiftLexicalText {
    let original: String
    /// The code, comments and the insides of string literals replaced by spaces.
    let code: String

    init(_ text: String) {
        original = text
        code = ChapterSources.blankingCommentsAndStrings(text)
    }

    /// The character offsets (in `code`) where `pattern` matches.
    func offsets(of pattern: String) -> [Int] {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(code.startIndex..., in: code)
        return expression.matches(in: code, range: range).compactMap { match in
            Range(match.range, in: code).map { code.distance(from: code.startIndex, to: $0.lowerBound) }
        }
    }

    /// The 1-based line of a character offset.
    func lineNumber(at offset: Int) -> Int {
        code.prefix(offset).reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
    }

    /// The type (or extension) whose declaration header contains `offset`: its name, and where its body starts.
    func enclosingDeclaration(before offset: Int) -> (name: String, bodyStart: Int?)? {
        let head = String(code.prefix(offset))
        let pattern = #"\b(class|struct|enum|actor|extension)\s+([A-Za-z_][A-Za-z0-9_.]*)[^{};]*$"#
        guard let expression = try? NSRegularExpression(pattern: pattern),
            let match = expression.firstMatch(in: head, range: NSRange(head.startIndex..., in: head)),
            let nameRange = Range(match.range(at: 2), in: head)
        else { return nil }
        let name = String(head[nameRange].split(separator: ".").last ?? "")
        let rest = code.dropFirst(offset)
        let brace = rest.firstIndex(of: "{").map { code.distance(from: code.startIndex, to: $0) }
        return (name, brace)
    }

    /// The body of the type declared as `name` (a class, struct, enum or actor), or, if there is none in
    /// this file, the body that starts at `bodyStart`.
    func typeBody(named name: String, preferring bodyStart: Int?) -> String? {
        let pattern = #"\b(class|struct|enum|actor)\s+"# + NSRegularExpression.escapedPattern(for: name) + #"\b[^{]*\{"#
        if let expression = try? NSRegularExpression(pattern: pattern),
            let match = expression.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)),
            let range = Range(match.range, in: code)
        {
            return body(from: code.distance(from: code.startIndex, to: range.upperBound) - 1)
        }
        return bodyStart.flatMap(body(from:))
    }

    /// The text between the brace at `offset` and its matching closing brace, each nested body
    /// shortened to `{}`.
    func body(from offset: Int) -> String? {
        let characters = Array(code)
        guard offset < characters.count, characters[offset] == "{" else { return nil }
        var depth = 0
        var text: [Character] = []
        for character in characters[offset...] {
            if character == "{" {
                depth += 1
                if depth == 2 { text.append("{") }
                continue
            }
            if character == "}" {
                depth -= 1
                if depth == 0 { return String(text) }
                if depth == 1 { text.append("}") }
                continue
            }
            if depth == 1 { text.append(character) }
        }
        return String(text)
    }

    /// The names of `var` stored properties declared at the top level of a type body whose nested
    /// bodies are shortened to `{}`. Left out: `static` ones, and computed ones (`var x: T {}` with no `=`).
    static func storedVars(in body: String) -> [String] {
        let pattern =
            #"(^|[\s;])((?:static|class|private|fileprivate|internal|public|package|final|lazy|weak|unowned|nonisolated|\(set\)|\(unsafe\)|@\w+)\s+)*var\s+([A-Za-z_][A-Za-z0-9_]*)"#
        guard let expression = try? NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines]) else {
            return []
        }
        return expression.matches(in: body, range: NSRange(body.startIndex..., in: body)).compactMap { match in
            guard let whole = Range(match.range, in: body), !body[whole].contains("static"),
                let name = Range(match.range(at: 3), in: body)
            else { return nil }
            let declaration = body[name.upperBound...].prefix { $0 != "\n" && $0 != ";" }
            let computed = declaration.contains("{}") && !declaration.contains("=")
            return computed ? nil : String(body[name])
        }
    }
}
