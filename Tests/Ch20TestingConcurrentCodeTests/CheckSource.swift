import Foundation
import WorkbookTesting

/// The learner's check files, read as text, to name the way a check waits when that way is
/// a guess: a sleep on the real clock, a fixed number of yields, a task nobody awaits, or a
/// `withKnownIssue` that turns the check's own failures into known ones.
///
/// The scan is lexical: comments and the insides of string literals are blanked first, so a
/// comment that mentions a sleep is not a finding. It only names mistakes; whether a
/// check works is decided by running it.
struct CheckSource {
    /// One place where a check waits by guessing.
    struct Finding: CustomStringConvertible {
        enum Kind { case sleep, yield, unawaitedTask, knownIssue }
        let kind: Kind
        let function: String
        let file: String
        let line: Int
        let code: String

        var description: String {
            let what =
                switch kind {
                case .sleep: "sleeps on the real clock (`\(code)`)"
                case .yield: "yields a fixed number of times (`\(code)`)"
                case .unawaitedTask: "starts a task (`\(code)`) and never awaits its `value` or `result`"
                case .knownIssue: "wraps its expectations in `\(code)`"
                }
            return "`\(function)` \(what) at \(file):\(line)"
        }
    }

    /// The checks under test: the chapter's files the tests were built against.
    static let sources = ChapterSources(chapter: "20-TestingConcurrentCode")

    /// The chapter folder the checks under test were built from.
    static var folder: URL { sources.folder }

    /// The names of the chapter's Swift files.
    static func swiftFiles() -> [String] { sources.fileNames }

    /// Every finding in the chapter's Swift files, in file and line order.
    static func findings() -> [Finding] {
        swiftFiles().flatMap { name -> [Finding] in
            guard let text = sources.text(of: name) else { return [] }
            return scan(text, file: name)
        }
    }

    /// The findings in the function named `function`.
    static func findings(in function: String) -> [Finding] {
        findings().filter { $0.function == function }
    }

    static func scan(_ text: String, file: String) -> [Finding] {
        let code = Array(ChapterSources.blankingCommentsAndStrings(text).utf16)
        var findings: [Finding] = []
        for function in functions(in: code) {
            let body = String(utf16CodeUnits: Array(code[function.body]), count: function.body.count)
            let base = function.body.lowerBound
            func line(_ offset: Int) -> Int { code[..<(base + offset)].count { $0 == 10 } + 1 }
            func add(_ kind: Finding.Kind, _ pattern: String) {
                for match in matches(pattern, in: body) {
                    let found = (body as NSString).substring(with: match.range)
                    findings.append(
                        Finding(
                            kind: kind, function: function.name, file: file, line: line(match.range.location),
                            code: found.trimmingCharacters(in: .whitespaces)))
                }
            }
            add(.sleep, #"Task\s*\.\s*sleep\b|Thread\s*\.\s*sleep\b|\busleep\s*\(|(?<![.\w])sleep\s*\(|\.asyncAfter\b"#)
            add(.yield, #"Task\s*\.\s*yield\b"#)
            add(.knownIssue, #"\bwithKnownIssue\b"#)
            for match in matches(#"\bTask(\s*\.\s*detached)?\s*(\(|\{)"#, in: body)
            where !isAwaited(taskAt: match.range, in: body) {
                let start = match.range.location
                findings.append(
                    Finding(
                        kind: .unawaitedTask, function: function.name, file: file, line: line(start),
                        code: (body as NSString).substring(with: match.range).replacingOccurrences(of: "(", with: "")
                            .replacingOccurrences(of: "{", with: "")
                            .trimmingCharacters(in: .whitespaces) + " { … }"))
            }
        }
        return findings
    }

    /// Whether the task created at `range` is awaited: `Task { … }.value` directly, or bound
    /// to a name whose `.value` or `.result` the function reads later.
    private static func isAwaited(taskAt range: NSRange, in body: String) -> Bool {
        let text = body as NSString
        // The end of the task's closure: the first `{` after the match, to its `}`.
        var index = range.location
        var depth = 0
        var end: Int?
        while index < text.length {
            let unit = text.character(at: index)
            if unit == 123 {  // {
                depth += 1
            } else if unit == 125 {  // }
                depth -= 1
                if depth == 0 {
                    end = index + 1
                    break
                }
            }
            index += 1
        }
        guard let end else { return false }
        let after = text.substring(from: end)
        if after.range(of: #"^\s*\.\s*(value|result)\b"#, options: .regularExpression) != nil { return true }
        // What comes before the task on its line, or on the line above when the task starts
        // a line of its own (`let upload =` ⏎ `Task { … }`).
        func lineStart(before location: Int) -> Int {
            let newline = text.range(of: "\n", options: .backwards, range: NSRange(location: 0, length: location))
            return newline.location == NSNotFound ? 0 : newline.location + 1
        }
        var prefixStart = lineStart(before: range.location)
        if text.substring(with: NSRange(location: prefixStart, length: range.location - prefixStart))
            .trimmingCharacters(in: .whitespaces).isEmpty, prefixStart > 0
        {
            prefixStart = lineStart(before: prefixStart - 1)
        }
        let prefix = text.substring(with: NSRange(location: prefixStart, length: range.location - prefixStart))
            .replacingOccurrences(of: "\n", with: " ")
        guard
            let binding = prefix.firstMatch(of: #/(?:let|var)\s+(\w+)\s*(?::[^=]*)?=\s*(?:try\s+)?(?:await\s+)?$/#)
        else { return false }
        let name = NSRegularExpression.escapedPattern(for: String(binding.output.1))
        return after.range(of: #"\b\#(name)\s*\.\s*(value|result)\b"#, options: .regularExpression) != nil
    }

    private static func matches(_ pattern: String, in text: String) -> [NSTextCheckingResult] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        return regex.matches(in: text, range: NSRange(location: 0, length: (text as NSString).length))
    }

    /// The functions declared in `code` (UTF-16 units): each name and the range of its body,
    /// braces included.
    private static func functions(in code: [UInt16]) -> [(name: String, body: Range<Int>)] {
        let text = String(utf16CodeUnits: code, count: code.count)
        var result: [(name: String, body: Range<Int>)] = []
        for match in matches(#"\bfunc\s+(\w+)"#, in: text) {
            let name = (text as NSString).substring(with: match.range(at: 1))
            var index = match.range.location + match.range.length
            while index < code.count, code[index] != 123 { index += 1 }
            let start = index
            var depth = 0
            while index < code.count {
                if code[index] == 123 { depth += 1 }
                if code[index] == 125 {
                    depth -= 1
                    if depth == 0 { break }
                }
                index += 1
            }
            guard start < code.count else { continue }
            result.append((name, start..<min(index + 1, code.count)))
        }
        return result
    }
}
