import Foundation
import Testing
import WorkbookCurriculum

/// The package root, found from this file's location.
private let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

private func text(_ relativePath: String) -> String? {
    try? String(contentsOf: root.appendingPathComponent(relativePath), encoding: .utf8)
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

    static func load(_ relativePath: String) -> LessonCatalog? {
        guard let data = text(relativePath)?.data(using: .utf8) else { return nil }
        return try? JSONDecoder().decode(LessonCatalog.self, from: data)
    }
}

/// The bug phrases of the lessons a Swift source defines: the first string literal of each
/// `.lesson(` and `Lesson(chapter: …, bug:`. Interpolations stay as written (`\(function)`).
private func lessonKeys(inSwiftFilesOf relativeFolder: String) -> Set<String> {
    let folder = root.appendingPathComponent(relativeFolder)
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    let pattern = #/(?:\.lesson\(|Lesson\(\s*chapter:[^,]*,\s*bug:)\s*"((?:[^"\\]|\\.)*)"/#
    var keys: Set<String> = []
    for file in files where file.hasSuffix(".swift") {
        guard let source = text("\(relativeFolder)/\(file)") else { continue }
        for match in source.matches(of: pattern) {
            keys.insert(String(match.output.1).replacingOccurrences(of: "\\\"", with: "\""))
        }
    }
    return keys
}

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
}
