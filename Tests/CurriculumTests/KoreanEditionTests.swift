import Foundation
import Testing
import WorkbookCurriculum

/// The package root, found from this file's location.
private let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

private func text(_ relativePath: String) -> String? {
    try? String(contentsOf: root.appendingPathComponent(relativePath), encoding: .utf8)
}

/// The `.swift` files under `folder` (relative to the root), at any depth, as relative paths.
private func swiftFiles(under folder: String) -> [String] {
    let enumerator = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)
    return (enumerator?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".swift") }.sorted()
        .map { "\(folder)/\($0)" }
}

/// What two readings must share: heading levels in order, hints, diagrams, and code.
private struct ReadingShape {
    var headings: [Int] = []
    var headingTexts: [String] = []
    var hints = 0
    var diagrams = 0
    /// Each non-diagram code block: its fence's info string, and its code without `//` comments.
    var blocks: [(info: String, code: [String])] = []

    init(_ markdown: String) {
        var inCode = false
        var info = ""
        var code: [String] = []
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                if inCode {
                    if info == "mermaid" { diagrams += 1 } else { blocks.append((info, code)) }
                } else {
                    info = String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces)
                    code = []
                }
                inCode.toggle()
            } else if inCode {
                guard !trimmed.hasPrefix("//") else { continue }
                let withoutComment = line.range(of: " //").map { String(line[..<$0.lowerBound]) } ?? line
                code.append(withoutComment.trimmingCharacters(in: .whitespaces))
            } else if line.hasPrefix("#") {
                headings.append(line.prefix { $0 == "#" }.count)
                headingTexts.append(line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces))
            }
            if !inCode { hints += line.components(separatedBy: "<details>").count - 1 }
        }
    }
}

/// The Korean catalog of one chapter (`Chapters/NN-Name/lessons.ko.json`) or of the workbook
/// (`Chapters/lessons.ko.json`).
private struct LessonCatalog: Decodable {
    struct Entry: Decodable {
        let bug: String
        let explanation: String
        let section: String?
    }
    struct CurriculumFields: Decodable {
        let title: String
        let concepts: [String]
        let hints: [String]
    }
    let lessons: [String: Entry]
    let curriculum: CurriculumFields?
    /// Test display names → their Korean names (every test of the chapter has one).
    let tests: [String: String]?
    /// Detail line templates (what a chapter's tests observed) → their Korean lines.
    let details: [String: String]?

    static func load(_ relativePath: String) -> LessonCatalog? {
        guard let data = text(relativePath)?.data(using: .utf8) else { return nil }
        return try? JSONDecoder().decode(LessonCatalog.self, from: data)
    }
}

/// The display names of the tests the Swift sources of a folder define: `@Test("…")`, string
/// literals joined with `+`.
private func testNames(inSwiftFilesOf relativeFolder: String) -> Set<String> {
    let folder = root.appendingPathComponent(relativeFolder)
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    var names: Set<String> = []
    for file in files where file.hasSuffix(".swift") {
        guard let source = text("\(relativeFolder)/\(file)") else { continue }
        for match in source.matches(of: #/@Test\(\s*((?:"(?:[^"\\]|\\.)*"\s*\+?\s*)+)/#) {
            let parts = match.output.1.matches(of: #/"((?:[^"\\]|\\.)*)"/#).map { String($0.output.1) }
            names.insert(parts.joined().replacingOccurrences(of: "\\\"", with: "\""))
        }
    }
    return names
}

/// The bug phrases of the lessons a Swift source defines: the first string literal of each
/// `.lesson(` and `Lesson(chapter: …, bug:`. Interpolations stay as written (`\(function)`).
private func lessonKeys(inSwiftFilesOf relativeFolder: String) -> Set<String> {
    let pattern = #/(?:\.lesson\(|Lesson\(\s*chapter:[^,]*,\s*bug:)\s*"((?:[^"\\]|\\.)*)"/#
    var keys: Set<String> = []
    for file in swiftFiles(under: relativeFolder) {
        guard let source = text(file) else { continue }
        for match in source.matches(of: pattern) {
            keys.insert(String(match.output.1).replacingOccurrences(of: "\\\"", with: "\""))
        }
    }
    return keys
}

/// Whether `text` has a Hangul syllable.
private func hasHangul(_ text: some StringProtocol) -> Bool {
    text.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) }
}

/// `text` without its inline code spans (which may run across lines), each replaced by "`…`".
private func withoutCodeSpans(_ text: String) -> String {
    text.replacing(#/`[^`]*`/#, with: "`…`")
}

/// The prose of a Markdown file: fenced code blocks are left out (but a mermaid diagram's
/// labels are prose, when `keepDiagrams`), and so are inline code spans. Lines keep their numbers.
private func markdownProse(_ markdown: String, keepDiagrams: Bool) -> [String] {
    var lines: [String] = []
    var fence: String?
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if let info = fence {
            if trimmed.hasPrefix("```") {
                fence = nil
                lines.append("")
            } else {
                lines.append(info == "mermaid" && keepDiagrams ? line : "")
            }
        } else if trimmed.hasPrefix("```") {
            fence = String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces)
            lines.append("")
        } else {
            lines.append(line)
        }
    }
    return withoutCodeSpans(lines.joined(separator: "\n")).split(separator: "\n", omittingEmptySubsequences: false)
        .map(String.init)
}

/// Every string in a JSON document, without inline code spans.
private func jsonStrings(_ json: Any) -> [String] {
    switch json {
    case let text as String: [withoutCodeSpans(text)]
    case let array as [Any]: array.flatMap(jsonStrings)
    case let object as [String: Any]: object.values.flatMap(jsonStrings)
    default: []
    }
}

/// One piece of Korean text to check: where it is, and the text.
private struct KoreanText {
    let place: String
    let text: String
}

/// The Korean text of the edition, as prose: the readings, README.ko.md, the glossary (up to its
/// table of discouraged terms, which has to name them), the lesson catalogs, and the Korean string
/// literals of Sources/WorkbookCLI. Code (blocks and spans) is left out; with `keepDiagrams`,
/// mermaid labels are kept.
private func koreanTexts(_ curriculum: Curriculum, keepDiagrams: Bool) -> [KoreanText] {
    var texts: [KoreanText] = []
    func addMarkdown(_ path: String, _ markdown: String?) {
        guard let markdown else {
            Issue.record("\(path) is missing")
            return
        }
        for (index, line) in markdownProse(markdown, keepDiagrams: keepDiagrams).enumerated() where hasHangul(line) {
            texts.append(KoreanText(place: "\(path):\(index + 1)", text: line))
        }
    }
    addMarkdown("README.ko.md", text("README.ko.md"))
    let glossary = text("Chapters/glossary.ko.md")
    addMarkdown(
        "Chapters/glossary.ko.md",
        glossary.map { $0.components(separatedBy: "\n" + discouragedTermsHeading + "\n")[0] })
    // The tool's own words are in its Korean catalog.
    var catalogs = ["Chapters/lessons.ko.json", "Sources/WorkbookCLI/Text/Catalogs/ko.json"]
    for chapter in curriculum.chapters {
        addMarkdown("Chapters/\(chapter.folder)/README.ko.md", text("Chapters/\(chapter.folder)/README.ko.md"))
        catalogs.append("Chapters/\(chapter.folder)/lessons.ko.json")
    }
    for path in catalogs {
        guard let data = text(path)?.data(using: .utf8), let json = try? JSONSerialization.jsonObject(with: data) else {
            Issue.record("\(path) is missing or not valid JSON")
            continue
        }
        texts += jsonStrings(json).filter(hasHangul).map { KoreanText(place: path, text: $0) }
    }
    let sources = root.appendingPathComponent("Sources/WorkbookCLI")
    // Recursively: the tool's sources sit in one folder per concern.
    for file in ((try? FileManager.default.subpathsOfDirectory(atPath: sources.path)) ?? []).sorted()
    where file.hasSuffix(".swift") {
        let lines = text("Sources/WorkbookCLI/\(file)")?.split(separator: "\n", omittingEmptySubsequences: false) ?? []
        for (index, line) in lines.enumerated()
        where hasHangul(line) && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
            // The Korean parts of the line: its string literals, or the whole line inside a """ literal.
            let literals = line.matches(of: #/"((?:[^"\\]|\\.)*)"/#).map { String($0.output.1) }
            for literal in (literals.isEmpty ? [String(line)] : literals) where hasHangul(literal) {
                texts.append(
                    KoreanText(place: "Sources/WorkbookCLI/\(file):\(index + 1)", text: withoutCodeSpans(literal)))
            }
        }
    }
    return texts
}

/// Whether a Korean line ends in 합니다체: "…다", after a closing period, parenthetical asides
/// ("…다(0.5초)") and a value quoted after a colon ("…끝납니다: nil") are set aside. A line
/// that ends in a code span quotes a diagnostic and is not a sentence.
private func endsInPoliteStyle(_ line: String) -> Bool {
    var rest = withoutCodeSpans(line).trimmingCharacters(in: .whitespaces)
    if rest.hasSuffix("`…`") { return true }
    while true {
        let trimmed = rest.replacing(#/\s*\([^()]*\)\.?$/#, with: "").replacing(#/:\s[^:]*$/#) {
            hasHangul($0.output) ? String($0.output) : ""
        }
        .trimmingCharacters(in: .whitespaces)
        if trimmed == rest { break }
        rest = trimmed
    }
    if rest.hasSuffix(".") { rest.removeLast() }
    return rest.hasSuffix("다") || rest.hasSuffix("세요")
}

/// The rows of the "테스트가 확인하는 것" table of a Korean reading: line number and cells.
private func testTableRows(_ markdown: String) -> [(line: Int, cells: [String])] {
    var rows: [(Int, [String])] = []
    var inSection = false
    for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        if line.hasPrefix("## ") { inSection = line == "## 테스트가 확인하는 것" }
        guard inSection, line.hasPrefix("|"), !line.hasPrefix("| ---") else { continue }
        // A `|` inside a code span is not a column.
        let cells = withoutCodeSpans(String(line)).split(separator: "|").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        .filter { !$0.isEmpty }
        rows.append((index + 1, cells))
    }
    return rows
}

/// The heading of the glossary's table of discouraged terms.
private let discouragedTermsHeading = "## 쓰지 않는 표현"

/// The glossary's discouraged terms: each row's first cell is a regular expression (in a code
/// span, `\|` standing for `|`), its second the preferred term.
private func discouragedTerms() throws -> [(pattern: NSRegularExpression, source: String, preferred: String)] {
    let glossary = try #require(text("Chapters/glossary.ko.md"), "Chapters/glossary.ko.md")
    let parts = glossary.components(separatedBy: "\n" + discouragedTermsHeading + "\n")
    try #require(parts.count == 2, "Chapters/glossary.ko.md has no '\(discouragedTermsHeading)' section")
    var terms: [(NSRegularExpression, String, String)] = []
    for line in parts[1].split(separator: "\n") where line.hasPrefix("| `") {
        guard let row = line.firstMatch(of: #/^\| `((?:[^`])+)` \| ([^|]+) \|/#) else {
            Issue.record("glossary: can't read the row \(line)")
            continue
        }
        let source = String(row.output.1).replacingOccurrences(of: "\\|", with: "|")
        let pattern = try NSRegularExpression(pattern: source, options: [.anchorsMatchLines])
        terms.append((pattern, source, row.output.2.trimmingCharacters(in: .whitespaces)))
    }
    return terms
}

/// GitHub's anchor for each heading of `markdown`: lower-cased, punctuation dropped, spaces as
/// hyphens, a repeated anchor numbered (`-1`, `-2`).
private func headingAnchors(_ markdown: String) -> Set<String> {
    var anchors: Set<String> = []
    var seen: [String: Int] = [:]
    for heading in ReadingShape(markdown).headingTexts {
        let kept = heading.lowercased().unicodeScalars.filter { scalar in
            scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                || scalar.properties.generalCategory == .nonspacingMark || scalar == " " || scalar == "-"
                || scalar == "_"
        }
        let slug = String(String.UnicodeScalarView(kept)).replacingOccurrences(of: " ", with: "-")
        let count = seen[slug, default: 0]
        seen[slug] = count + 1
        anchors.insert(count == 0 ? slug : "\(slug)-\(count)")
    }
    return anchors
}

/// The top-level README sections the tool and the instruments send learners to, each with its
/// twin in README.ko.md. The teacher's sections are in English only.
private let learnerSections = [
    "Time and memory limits": "시간과 메모리 제한",
    "Data races the tests can't see": "테스트가 보지 못하는 데이터 경쟁",
    "When a test says the process ended early": "테스트가 프로세스가 일찍 끝났다고 할 때",
    "When the Swift 6 compiler is the test": "Swift 6 컴파일러가 테스트일 때",
]
private let teacherSections: Set = ["The report's JSON schema"]

@Suite("The Korean edition keeps in step with the English one")
struct KoreanEditionTests {
    let curriculum: Curriculum

    init() throws {
        curriculum = try Curriculum.load(packageRoot: root)
    }

    @Test("Every chapter has a Korean reading with the same headings, hints, diagrams and code")
    func readingsMatch() {
        for chapter in curriculum.chapters {
            let koreanPath = "Chapters/\(chapter.folder)/README.ko.md"
            guard let english = text(chapter.readmePath), let korean = text(koreanPath) else {
                Issue.record("\(chapter.folder) has no \(koreanPath)")
                continue
            }
            let en = ReadingShape(english)
            let ko = ReadingShape(korean)
            #expect(
                en.headings == ko.headings, "\(koreanPath): headings differ in number, level or order from README.md")
            #expect(en.hints == ko.hints, "\(koreanPath): \(ko.hints) hints, README.md has \(en.hints)")
            #expect(en.diagrams == ko.diagrams, "\(koreanPath): \(ko.diagrams) diagrams, README.md has \(en.diagrams)")
            #expect(
                en.blocks.map(\.info) == ko.blocks.map(\.info),
                "\(koreanPath): the code blocks differ in number or kind from README.md")
            for (index, (a, b)) in zip(en.blocks, ko.blocks).enumerated() where a.info.hasPrefix("swift") {
                #expect(a.code == b.code, "\(koreanPath): Swift block \(index + 1) has other code than README.md")
            }
            #expect(korean.contains("(README.md)"), "\(koreanPath) links its English reading")
        }
    }

    @Test("Every lesson a chapter's tests define has a Korean bug phrase and explanation")
    func chapterLessonsTranslated() {
        for chapter in curriculum.chapters {
            let catalogPath = "Chapters/\(chapter.folder)/lessons.ko.json"
            guard let catalog = LessonCatalog.load(catalogPath) else {
                Issue.record("\(catalogPath) is missing or not valid")
                continue
            }
            let keys = lessonKeys(inSwiftFilesOf: "Tests/\(chapter.testTarget)")
            #expect(!keys.isEmpty, "no lessons found in Tests/\(chapter.testTarget)")
            for key in keys.subtracting(catalog.lessons.keys).sorted() {
                Issue.record("\(catalogPath) has no Korean for the lesson \"\(key)\"")
            }
            for key in Set(catalog.lessons.keys).subtracting(keys).sorted() {
                Issue.record("\(catalogPath) translates \"\(key)\", which no test of \(chapter.folder) defines")
            }
            for (key, entry) in catalog.lessons where entry.bug.isEmpty || entry.explanation.isEmpty {
                Issue.record("\(catalogPath): \"\(key)\" needs both a bug phrase and an explanation")
            }
        }
    }

    @Test("Every test of a chapter has a Korean name, and every Korean name names a test of its chapter")
    func testNamesTranslated() {
        for chapter in curriculum.chapters {
            let catalogPath = "Chapters/\(chapter.folder)/lessons.ko.json"
            let names = LessonCatalog.load(catalogPath)?.tests ?? [:]
            let defined = testNames(inSwiftFilesOf: "Tests/\(chapter.testTarget)")
            #expect(!defined.isEmpty, "no test names found in Tests/\(chapter.testTarget)")
            for name in defined.subtracting(names.keys).sorted() {
                Issue.record("\(catalogPath) has no Korean name for the test \"\(name)\" (add it under \"tests\")")
            }
            for name in Set(names.keys).subtracting(defined).sorted() {
                Issue.record(
                    "\(catalogPath) translates the test name \"\(name)\", which no test of \(chapter.folder) has")
            }
            for (name, korean) in names where !hasHangul(korean) {
                Issue.record("\(catalogPath): the test name \"\(name)\" has no Korean translation")
            }
        }
    }

    @Test("A translated detail line is written by its chapter's tests, with the same placeholders")
    func detailLinesTranslated() {
        let placeholder = #/\\\(([A-Za-z0-9_.]+)(?:\|[^)]*)?\)/#
        for chapter in curriculum.chapters {
            let catalogPath = "Chapters/\(chapter.folder)/lessons.ko.json"
            let details = LessonCatalog.load(catalogPath)?.details ?? [:]
            guard !details.isEmpty else { continue }
            // What the chapter's tests write, with the words of the simulated world they use.
            let sources =
                (swiftFiles(under: "Tests/\(chapter.testTarget)") + swiftFiles(under: "Sources/SimulatedWorld"))
                .compactMap(text).joined(separator: "\n")
                .replacing(#/"\s*\+\s*"/#, with: "")  // literals joined with +, as one
                .replacingOccurrences(of: "\\\"", with: "\"")
            for (english, korean) in details.sorted(by: { $0.key < $1.key }) {
                // The tool matches a line without its indentation, so a key that starts with
                // spaces never matches anything.
                if english.first?.isWhitespace == true {
                    Issue.record(
                        "\(catalogPath): the detail \"\(english)\" starts with spaces, so it never matches (the tool drops a line's indentation before matching)"
                    )
                }
                // Each stretch of text between placeholders is in a test source (a template is
                // not stale), and both sides name the same values.
                let fragments = english.split(separator: placeholder).map(String.init).filter { $0.count > 2 }
                for fragment in fragments where !sources.contains(fragment) {
                    Issue.record(
                        "\(catalogPath): the detail \"\(english)\" has \"\(fragment)\", which no test of \(chapter.folder) writes"
                    )
                }
                let names = { (text: String) in Set(text.matches(of: placeholder).map { String($0.output.1) }) }
                if names(english) != names(korean) || korean.isEmpty {
                    Issue.record("\(catalogPath): the detail \"\(english)\" and its Korean line name different values")
                }
            }
        }
    }

    @Test("Every chapter's title, concepts and hints have Korean text")
    func curriculumTranslated() {
        for chapter in curriculum.chapters {
            let korean = LessonCatalog.load("Chapters/\(chapter.folder)/lessons.ko.json")?.curriculum
            guard let korean else {
                Issue.record("\(chapter.folder): no Korean title, concepts and hints")
                continue
            }
            #expect(!korean.title.isEmpty, "\(chapter.folder): no Korean title")
            #expect(korean.concepts.count == chapter.concepts.count, "\(chapter.folder): Korean concepts")
            #expect(korean.hints.count == chapter.hints.count, "\(chapter.folder): Korean hints")
        }
    }

    @Test("The workbook's own lessons have Korean text, pointing to sections of README.ko.md")
    func workbookLessonsTranslated() throws {
        let catalog = try #require(LessonCatalog.load("Chapters/lessons.ko.json"), "Chapters/lessons.ko.json")
        let keys = lessonKeys(inSwiftFilesOf: "Sources/WorkbookTesting")
        #expect(Set(catalog.lessons.keys) == keys, "Chapters/lessons.ko.json and Sources/WorkbookTesting's lessons")
        let readme = ReadingShape(try #require(text("README.ko.md"), "README.ko.md"))
        for (key, entry) in catalog.lessons {
            let section = try #require(entry.section, "\"\(key)\" names no section of README.ko.md")
            #expect(readme.headingTexts.contains(section), "README.ko.md has no heading '\(section)'")
        }
    }

    @Test("README.md links the Korean edition, which links every chapter's Korean reading, and the glossary exists")
    func linked() throws {
        #expect(try #require(text("README.md")).contains("(README.ko.md)"), "README.md links README.ko.md")
        let korean = try #require(text("README.ko.md"), "README.ko.md")
        for chapter in curriculum.chapters {
            #expect(korean.contains("Chapters/\(chapter.folder)/README.ko.md"), "README.ko.md links \(chapter.folder)")
        }
        #expect(text("Chapters/glossary.ko.md") != nil, "Chapters/glossary.ko.md")
    }

    @Test("No Korean text uses a term the glossary discourages")
    func preferredTerms() throws {
        let terms = try discouragedTerms()
        #expect(terms.count >= 5, "the glossary's table of discouraged terms looks empty")
        for piece in koreanTexts(curriculum, keepDiagrams: true) {
            let range = NSRange(piece.text.startIndex..., in: piece.text)
            for term in terms {
                guard let found = term.pattern.firstMatch(in: piece.text, range: range),
                    let matched = Range(found.range, in: piece.text)
                else { continue }
                Issue.record(
                    "\(piece.place): \"\(piece.text[matched])\" (the glossary says: \(term.preferred), not /\(term.source)/)\n  \(piece.text)"
                )
            }
        }
    }

    @Test("Lesson titles and the test tables speak 합니다체, under one table header")
    func oneRegister() {
        for chapter in curriculum.chapters {
            let catalogPath = "Chapters/\(chapter.folder)/lessons.ko.json"
            for (key, entry) in (LessonCatalog.load(catalogPath)?.lessons ?? [:]).sorted(by: { $0.key < $1.key })
            where !endsInPoliteStyle(entry.bug) {
                Issue.record(
                    "\(catalogPath): the lesson \"\(key)\" has a title that doesn't end in 합니다체 (\"…합니다\"), as the glossary's 문체 asks\n  \(entry.bug)"
                )
            }
            let readingPath = "Chapters/\(chapter.folder)/README.ko.md"
            for row in testTableRows(text(readingPath) ?? "") {
                if row.cells.first == "테스트" {
                    #expect(
                        row.cells == ["테스트", "고치기 전의 연습 문제에서"],
                        "\(readingPath):\(row.line): the test table's header is '| 테스트 | 고치기 전의 연습 문제에서 |'")
                    continue
                }
                for cell in row.cells where !endsInPoliteStyle(cell) {
                    Issue.record(
                        "\(readingPath):\(row.line): a test table cell that doesn't end in 합니다체 (\"통과합니다\", not \"통과\", \"…됨\" or \"…한다\")\n  \(cell)"
                    )
                }
            }
        }
    }

    @Test("No Korean sentence ends with an English-style semicolon")
    func noSemicolons() {
        for piece in koreanTexts(curriculum, keepDiagrams: false) where piece.text.contains(";") {
            Issue.record("\(piece.place): a ';' in Korean text; end the sentence with '.' instead\n  \(piece.text)")
        }
    }

    @Test("Every link to a section (#anchor) in a reading leads to a heading of its target")
    func anchorsExist() throws {
        var readings = ["README.md", "README.ko.md"]
        for chapter in curriculum.chapters {
            readings += [chapter.readmePath, "Chapters/\(chapter.folder)/README.ko.md"]
        }
        var checked = 0
        for path in readings {
            let markdown = try #require(text(path), "\(path)")
            let prose = markdownProse(markdown, keepDiagrams: false).joined(separator: "\n")
            for link in prose.matches(of: #/\]\(([^)\s#]*)#([^)\s]+)\)/#) {
                let target = String(link.output.1)
                guard !target.contains("://") else { continue }
                let folder = (path as NSString).deletingLastPathComponent
                let targetPath =
                    target.isEmpty
                    ? path : ((folder as NSString).appendingPathComponent(target) as NSString).standardizingPath
                let anchor = String(link.output.2).removingPercentEncoding ?? String(link.output.2)
                checked += 1
                guard let targetText = text(targetPath) else {
                    Issue.record("\(path): the link to \(target)#\(anchor) leads to no file")
                    continue
                }
                #expect(
                    headingAnchors(targetText).contains(anchor),
                    "\(path): the link to \(target.isEmpty ? "" : target)#\(anchor): \(targetPath) has no such heading")
            }
        }
        #expect(checked >= 5, "found only \(checked) links to sections")
    }

    @Test("The README sections the tool names are in both top-level READMEs")
    func toolSectionsInBothReadmes() throws {
        let english = Set(ReadingShape(try #require(text("README.md"), "README.md")).headingTexts)
        let korean = Set(ReadingShape(try #require(text("README.ko.md"), "README.ko.md")).headingTexts)
        for (section, twin) in learnerSections {
            #expect(english.contains(section), "README.md has no section '\(section)'")
            #expect(korean.contains(twin), "README.ko.md has no section '\(twin)' (the twin of '\(section)')")
        }
        // What the sources name: `section: "…", reading: "README.md"`, `"…" in the workbook's README.md`,
        // `'…' in README.md`, `README.md ("…")`; and in Korean, `README.ko.md의 "…"`.
        var named: Set<String> = []
        var namedInKorean: Set<String> = []
        for folder in ["Sources/WorkbookCLI", "Sources/WorkbookTesting"] {
            let files =
                (try? FileManager.default.subpathsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
            // The sources, and the tool's catalogs (Text/Catalogs/*.json), which hold its words.
            for file in files where file.hasSuffix(".swift") || file.hasSuffix(".json") {
                // Doc comments name sections too, but only what the code says reaches a learner.
                let source = try #require(text("\(folder)/\(file)")).split(separator: "\n")
                    .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
                named.formUnion(
                    source.matches(of: #/section: "([^"\\]+)", reading: "README\.md"/#).map { String($0.output.1) })
                named.formUnion(
                    source.matches(of: #/\\"([^"\\]+)\\" in the workbook's README\.md/#).map { String($0.output.1) })
                named.formUnion(source.matches(of: #/"'([^"]+)' in README\.md/#).map { String($0.output.1) })
                named.formUnion(source.matches(of: #/README\.md \(\\?"([^"\\]+)\\?"\)/#).map { String($0.output.1) })
                namedInKorean.formUnion(
                    source.matches(of: #/README\.ko\.md의 \\"([^"\\]+)\\"/#).map { String($0.output.1) })
            }
        }
        #expect(named.count >= 3, "found only \(named.sorted()) named in the sources")
        #expect(!namedInKorean.isEmpty, "found no section of README.ko.md named in the sources")
        for section in named.sorted() {
            #expect(english.contains(section), "the tool names '\(section)', which README.md has no heading for")
            #expect(
                learnerSections[section] != nil || teacherSections.contains(section),
                "the tool names '\(section)': add it and its README.ko.md twin to learnerSections")
        }
        for section in namedInKorean.sorted() {
            #expect(korean.contains(section), "the tool names '\(section)', which README.ko.md has no heading for")
        }
    }
}
