import Foundation
import Testing
import WorkbookCurriculum

/// The package root, found from this file's location.
private let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The hints of a reading: the text of each `<details>` block after its hints heading, without
/// the `<summary>` line, its lines joined by single spaces (as `curriculum.json` keeps them).
private func readingHints(_ markdown: String, heading: String) -> [String]? {
    guard let start = markdown.range(of: "\n## \(heading)\n") else { return nil }
    var rest = markdown[start.upperBound...]
    if let next = rest.range(of: "\n## ") { rest = rest[..<next.lowerBound] }
    return rest.components(separatedBy: "<details>").dropFirst().map { block in
        var body = Substring(block.components(separatedBy: "</details>")[0])
        if let summary = body.range(of: "</summary>") { body = body[summary.upperBound...] }
        return body.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

/// The tool shows a chapter's hints from `curriculum.json` (English) and the chapter's
/// `lessons.ko.json` (Korean); the learner reads them in the reading. They must be the same
/// hints, word for word, code formatting included.
@Suite("The tool's hints are the readings' hints")
struct ReadingHintsTests {
    let curriculum: Curriculum

    init() throws {
        curriculum = try Curriculum.load(packageRoot: packageRoot)
    }

    private func text(_ relativePath: String) -> String? {
        try? String(contentsOf: packageRoot.appendingPathComponent(relativePath), encoding: .utf8)
    }

    @Test("curriculum.json's hints are README.md's hints")
    func english() throws {
        for chapter in curriculum.chapters {
            let reading = try #require(text(chapter.readmePath), "\(chapter.readmePath)")
            let hints = try #require(readingHints(reading, heading: "Hints"), "\(chapter.readmePath) has no Hints")
            #expect(
                chapter.hints.count == hints.count,
                "\(chapter.folder): curriculum.json has \(chapter.hints.count) hints, README.md \(hints.count)")
            for (index, (tool, read)) in zip(chapter.hints, hints).enumerated() where tool != read {
                Issue.record(
                    "\(chapter.folder): curriculum.json's hint \(index + 1) is not README.md's\n  tool:    \(tool)\n  reading: \(read)"
                )
            }
        }
    }

    @Test("lessons.ko.json's hints are README.ko.md's hints")
    func korean() throws {
        struct Catalog: Decodable {
            struct Fields: Decodable { let hints: [String] }
            let curriculum: Fields
        }
        for chapter in curriculum.chapters {
            let folder = "Chapters/\(chapter.folder)"
            let reading = try #require(text("\(folder)/README.ko.md"), "\(folder)/README.ko.md")
            let hints = try #require(readingHints(reading, heading: "힌트"), "\(folder)/README.ko.md has no 힌트")
            let data = try #require(text("\(folder)/lessons.ko.json")?.data(using: .utf8))
            let tool = try JSONDecoder().decode(Catalog.self, from: data).curriculum.hints
            #expect(
                tool.count == hints.count,
                "\(chapter.folder): lessons.ko.json has \(tool.count) hints, README.ko.md \(hints.count)")
            for (index, (shown, read)) in zip(tool, hints).enumerated() where shown != read {
                Issue.record(
                    "\(chapter.folder): lessons.ko.json's hint \(index + 1) is not README.ko.md's\n  tool:    \(shown)\n  reading: \(read)"
                )
            }
        }
    }
}
