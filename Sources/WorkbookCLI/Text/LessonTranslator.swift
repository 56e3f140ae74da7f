import Foundation
import WorkbookCurriculum

/// Shows a recorded failure message in the learner's language.
///
/// A lesson's message is `BUG: EXPLANATION — see 'SECTION' in PATH`, then lines of detail
/// (what the test observed). The translator looks BUG up in the chapter's catalog, or in the
/// workbook-wide one, and gives the translated bug and explanation; SECTION becomes the heading at
/// the same position in the translated reading (or, for a workbook-wide lesson, the catalog's
/// `section`), and PATH's `README.md` the translated reading. Detail lines that the workbook's
/// instruments write (``DetailLines``) are translated; the others stay as recorded.
public struct LessonTranslator: Sendable {
    public var translation: Translation
    /// The text of a reading, by its path relative to the workbook's root (nil if there is none).
    public var read: @Sendable (String) -> String?
    /// The instruments' fixed lines in the translation's language.
    public var details: DetailLines

    public init(translation: Translation, read: @escaping @Sendable (String) -> String?) {
        self.translation = translation
        self.read = read
        details = Language(code: translation.code).map { DetailLines(catalog: $0.catalog) } ?? DetailLines([])
    }

    /// A message, shown in the language: the text, its section and its reading, and whether a
    /// catalog had the lesson.
    public struct Shown: Equatable, Sendable {
        public var lesson: LessonText
        public var translated: Bool
    }

    /// The name of a test of `chapter` in the translation's language, if its catalog has one.
    public func testName(_ displayName: String, chapter: Curriculum.Chapter) -> String? {
        translation.chapters[chapter.folder]?.tests[displayName]
    }

    /// `message` (recorded while testing `chapter`) in the translation's language.
    public func show(_ message: String, chapter: Curriculum.Chapter) -> Shown {
        let english = LessonText(message)
        var lines = english.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let reading = english.reading
        let folder = reading.flatMap(Self.chapterFolder(ofReading:)) ?? chapter.folder
        let catalogs: [(lessons: [String: Translation.LessonText], workbook: Bool)] = [
            (translation.chapters[folder]?.lessons ?? [:], false),
            (folder == chapter.folder ? [:] : translation.chapters[chapter.folder]?.lessons ?? [:], false),
            (translation.workbookLessons, true),
        ]
        var found: (text: Translation.LessonText, values: [String: String], workbook: Bool)?
        var foundKeyLength = -1
        for catalog in catalogs {
            for (key, text) in catalog.lessons where key.count > foundKeyLength {
                if let values = Self.match(key: key, atStartOf: lines.first ?? "") {
                    found = (text, values, catalog.workbook)
                    foundKeyLength = key.count
                }
            }
        }
        var section = english.section
        let translatedReading = reading.map(translatedPath)
        if let found, found.workbook, let catalogSection = found.text.section {
            section = catalogSection
        } else if let englishSection = english.section {
            section = translatedHeading(englishSection, in: reading ?? chapter.readmePath) ?? englishSection
        }
        // The instruments' own lines and the chapter's detail lines, after the lesson's first
        // line (or as the first, when they are the message).
        let chapterDetails = detailTemplates(of: [folder, chapter.folder])
        var firstLineTranslated = false
        for index in lines.indices where index > 0 || found == nil {
            guard let translated = translateLine(lines[index], chapterDetails) else { continue }
            lines[index] = translated
            if index == 0 { firstLineTranslated = true }
        }
        guard let found else {
            return Shown(
                lesson: LessonText(text: lines.joined(separator: "\n"), section: section, reading: translatedReading),
                translated: firstLineTranslated)
        }
        let bug = fillFormatted(found.text.bug, with: found.values)
        let explanation = fillFormatted(found.text.explanation, with: found.values)
        lines[0] = explanation.isEmpty ? bug : "\(bug): \(explanation)"
        return Shown(
            lesson: LessonText(text: lines.joined(separator: "\n"), section: section, reading: translatedReading),
            translated: true)
    }

    /// The detail templates of the chapters `folders` (English → translated), longest first, so
    /// the most specific template that matches a line wins.
    public func detailTemplates(of folders: [String]) -> [(english: String, translated: String)] {
        var seen = Set<String>()
        let details: [(key: String, value: String)] = folders.flatMap { folder in
            (translation.chapters[folder]?.details ?? [:]).map { (key: $0.key, value: $0.value) }
        }
        return details.filter { seen.insert($0.key).inserted }
            // A template that is placeholders only would match any line.
            .filter { !$0.key.replacing(#/\\\([^)]*\)/#, with: "").trimmingCharacters(in: .whitespaces).isEmpty }
            .map { (english: $0.key, translated: $0.value) }
            .sorted {
                (DetailLines.literalLength($0.english), $0.english) > (
                    DetailLines.literalLength($1.english), $1.english
                )
            }
    }

    /// `line` in the language, or nil when no template is the whole line: the instruments'
    /// templates first, then the chapter's. Each value a template captures is translated the
    /// same way (an outcome such as `it threw CancellationError()` inside a chapter's line, or
    /// a chapter's step inside an instrument's), `depth` levels down. A value that is a list
    /// (items joined by ", ") is translated item by item when every item is a template, or when
    /// no template matches it whole.
    public func translateLine(
        _ line: String, _ chapterTemplates: [(english: String, translated: String)], depth: Int = 3
    ) -> String? {
        let value: (String) -> String = { value in
            guard depth > 0 else { return value }
            // A list ("#1 busy, #2 ended") whose every item is a template: item by item, before
            // a template that would take the whole list as one value.
            let items = Self.listItems(value)
            let each = items.count > 1 ? items.map { translateLine($0, chapterTemplates, depth: depth - 1) } : []
            if !each.isEmpty, each.allSatisfy({ $0 != nil }) { return each.compactMap { $0 }.joined(separator: ", ") }
            if let whole = translateLine(value, chapterTemplates, depth: depth - 1) { return whole }
            // Otherwise the items a template matches, the others as recorded.
            return each.isEmpty ? value : zip(each, items).map { $0 ?? $1 }.joined(separator: ", ")
        }
        return details.translate(line, value: value) ?? translateDetail(line, chapterTemplates, value: value)
    }

    /// The items of a list value, split at each ", " outside brackets, parentheses, braces and
    /// double quotes: `a, b` has two, but `[fix #1, fix #2]` and `failed(id: "a", code: 2)` are one
    /// item each, which a template can take whole or, through a template such as `[\(items)]`,
    /// item by item.
    public static func listItems(_ value: String) -> [String] {
        let characters = Array(value)
        var items: [String] = []
        var start = 0
        var depth = 0
        var quoted = false
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if quoted {
                if character == "\\" { index += 1 } else if character == "\"" { quoted = false }
            } else if character == "\"" {
                quoted = true
            } else if "([{".contains(character) {
                depth += 1
            } else if ")]}".contains(character) {
                depth = max(0, depth - 1)
            } else if character == ",", depth == 0, index + 1 < characters.count, characters[index + 1] == " " {
                items.append(String(characters[start..<index]))
                start = index + 2
                index += 1
            }
            index += 1
        }
        items.append(String(characters[start...]))
        return items
    }

    /// `line` (a line a chapter's test wrote) in the language, with its indentation, or nil when
    /// none of `templates` is the whole line. Each value goes through `value` first.
    public func translateDetail(
        _ line: String, _ templates: [(english: String, translated: String)],
        value: (String) -> String = { $0 }
    ) -> String? {
        let indent = String(line.prefix { $0 == " " })
        let content = String(line.dropFirst(indent.count))
        for template in templates {
            guard let values = Self.values(of: template.english, in: content, followedBy: "$") else { continue }
            return indent + fillFormatted(template.translated, with: values.mapValues(value))
        }
        return nil
    }

    /// `text` with each `\(name)` replaced by its value, and `\(name|seconds)` or `\(name|…)` with a particle
    /// formatted by the language's catalog (a duration, a particle after the value).
    public func fillFormatted(_ text: String, with values: [String: String]) -> String {
        guard let catalog = details.catalog, text.contains("|") else { return Self.fill(text, with: values) }
        let braced = text.replacing(#/\\\(([A-Za-z0-9_.]+)(\|[^)]*)?\)/#) {
            "{" + $0.output.1 + ($0.output.2 ?? "") + "}"
        }
        return catalog.fill(braced, values)
    }

    /// `Chapters/01-Continuations/README.md` → `Chapters/01-Continuations/README.ko.md`.
    public func translatedPath(_ path: String) -> String {
        guard path.hasSuffix("README.md") else { return path }
        return String(path.dropLast("README.md".count)) + "README.\(translation.code).md"
    }

    /// The heading at the position of `section` among the headings of the English reading
    /// `path`, in its translation. Nil when either reading is missing or has no such heading.
    public func translatedHeading(_ section: String, in path: String) -> String? {
        let englishPath =
            path.hasSuffix("README.\(translation.code).md")
            ? String(path.dropLast("README.\(translation.code).md".count)) + "README.md" : path
        guard let english = read(englishPath), let translated = read(translatedPath(englishPath)) else { return nil }
        let englishHeadings = Self.headings(in: english)
        let translatedHeadings = Self.headings(in: translated)
        guard let index = englishHeadings.firstIndex(of: section), index < translatedHeadings.count else { return nil }
        return translatedHeadings[index]
    }

    /// The heading lines of a Markdown text (outside code blocks), without their `#`s.
    public static func headings(in markdown: String) -> [String] {
        var headings: [String] = []
        var fence: String?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if let open = fence {
                if trimmed.hasPrefix(open) { fence = nil }
                continue
            }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                fence = String(trimmed.prefix(3))
                continue
            }
            guard line.hasPrefix("#") else { continue }
            let marks = line.prefix { $0 == "#" }
            let rest = line.dropFirst(marks.count)
            guard marks.count <= 6, rest.isEmpty || rest.hasPrefix(" ") else { continue }
            headings.append(rest.trimmingCharacters(in: .whitespaces))
        }
        return headings
    }

    /// The values of `key`'s `\(name)` placeholders when `line` starts with `key` followed by
    /// `: ` (or is `key`); nil when it does not.
    public static func match(key: String, atStartOf line: String) -> [String: String]? {
        values(of: key, in: line, followedBy: "(?::\\s|$)", options: [.dotMatchesLineSeparators])
    }

    /// The values of `template`'s `\(name)` placeholders when `line` starts with `template`
    /// followed by what the regular expression `end` matches; nil when it does not. A placeholder
    /// named `index` matches digits only; any other, any text.
    static func values(
        of template: String, in line: String, followedBy end: String,
        options: NSRegularExpression.Options = []
    ) -> [String: String]? {
        var pattern = "^"
        var names: [String] = []
        var rest = Substring(template)
        while let open = rest.range(of: "\\("), let close = rest[open.upperBound...].firstIndex(of: ")") {
            pattern += NSRegularExpression.escapedPattern(for: String(rest[..<open.lowerBound]))
            names.append(String(rest[open.upperBound..<close]))
            // `\(index)` is a number (a step's, in a numbered list): `\(index). \(step)` must not
            // take every line that holds ". ".
            pattern += names.last == "index" ? "([0-9]+)" : "(.+?)"
            rest = rest[rest.index(after: close)...]
        }
        pattern += NSRegularExpression.escapedPattern(for: String(rest)) + end
        guard let regex = try? NSRegularExpression(pattern: pattern, options: options),
            let found = regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line))
        else { return nil }
        var values: [String: String] = [:]
        for (index, name) in names.enumerated() {
            if let range = Range(found.range(at: index + 1), in: line) { values[name] = String(line[range]) }
        }
        // The shortest values may cut a list in two (`posts ["a", "b"]` read up to the first
        // ", "); then, for a whole line, the shortest values that keep brackets and quotes whole.
        if end == "$", !values.values.allSatisfy(isBalanced) {
            return balancedValues(of: template, in: line) ?? values
        }
        return values
    }

    /// Whether `text` closes every bracket it opens and every double quote.
    static func isBalanced(_ text: String) -> Bool {
        var open: [Character] = []
        var quoted = false
        for character in text {
            if character == "\"" {
                quoted.toggle()
            } else if quoted {
                continue
            } else if "([{".contains(character) {
                open.append(character)
            } else if let opening = (["]": "[", ")": "(", "}": "{"] as [Character: Character])[character] {
                guard open.popLast() == opening else { return false }
            }
        }
        return open.isEmpty && !quoted
    }

    /// The values of `template`'s placeholders when `line` is the whole template and each
    /// value is balanced (``isBalanced(_:)``), each as short as it can be; nil when none fit.
    static func balancedValues(of template: String, in line: String) -> [String: String]? {
        var literals: [String] = []
        var names: [String] = []
        var rest = Substring(template)
        while let open = rest.range(of: "\\("), let close = rest[open.upperBound...].firstIndex(of: ")") {
            literals.append(String(rest[..<open.lowerBound]))
            names.append(String(rest[open.upperBound..<close]))
            rest = rest[rest.index(after: close)...]
        }
        literals.append(String(rest))
        guard line.hasPrefix(literals[0]) else { return nil }
        func fill(_ index: Int, from start: String.Index) -> [String]? {
            guard index < names.count else { return start == line.endIndex ? [] : nil }
            let next = literals[index + 1]
            var searchFrom = start < line.endIndex ? line.index(after: start) : line.endIndex
            while searchFrom <= line.endIndex {
                let found: Range<String.Index>
                if index + 1 == names.count {
                    // The last literal ends the line.
                    guard line.hasSuffix(next), line.index(line.endIndex, offsetBy: -next.count) > start else {
                        return nil
                    }
                    found = line.index(line.endIndex, offsetBy: -next.count)..<line.endIndex
                } else {
                    guard let range = line.range(of: next, range: searchFrom..<line.endIndex) else { return nil }
                    found = range
                }
                let value = String(line[start..<found.lowerBound])
                if isBalanced(value), let others = fill(index + 1, from: found.upperBound) { return [value] + others }
                if index + 1 == names.count || found.lowerBound == line.endIndex { return nil }
                searchFrom = line.index(after: found.lowerBound)
            }
            return nil
        }
        let start = line.index(line.startIndex, offsetBy: literals[0].count)
        guard let found = fill(0, from: start) else { return nil }
        return Dictionary(zip(names, found)) { first, _ in first }
    }

    /// `text` with each `\(name)` whose value is known replaced by it.
    static func fill(_ text: String, with values: [String: String]) -> String {
        values.reduce(text) { $0.replacingOccurrences(of: "\\(\($1.key))", with: $1.value) }
    }

    /// `Chapters/01-Continuations/README.md` → `01-Continuations`; nil for the top-level README.
    static func chapterFolder(ofReading path: String) -> String? {
        let parts = path.split(separator: "/")
        guard parts.count >= 3, parts[parts.count - 3] == "Chapters" else { return nil }
        return String(parts[parts.count - 2])
    }
}
