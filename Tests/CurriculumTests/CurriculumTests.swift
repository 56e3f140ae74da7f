import Foundation
import Testing
import WorkbookCurriculum

/// The package root, found from this file's location.
private let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

private func contents(_ relativePath: String) throws -> String {
    try String(contentsOf: packageRoot.appendingPathComponent(relativePath), encoding: .utf8)
}

/// The numbered chapter folders in `relativePath`; none if the folder is missing (a student
/// edition has no `Solutions/`).
private func folders(in relativePath: String) throws -> [String] {
    let path = packageRoot.appendingPathComponent(relativePath).path
    guard FileManager.default.fileExists(atPath: path) else { return [] }
    return try FileManager.default.contentsOfDirectory(atPath: path)
        .filter { $0.first?.isNumber == true }
        .sorted()
}

@Suite("The curriculum manifest agrees with the folders")
struct CurriculumTests {
    let curriculum: Curriculum

    init() throws {
        curriculum = try Curriculum.load(packageRoot: packageRoot)
    }

    @Test("Chapters are numbered 1, 2, 3… in folder order")
    func numbering() throws {
        #expect(curriculum.chapters.map(\.number) == Array(1...curriculum.chapters.count))
        for chapter in curriculum.chapters {
            #expect(
                chapter.folder.hasPrefix(String(format: "%02d-", chapter.number)),
                "\(chapter.folder) should start with its number")
        }
    }

    @Test("Every chapter folder is in the manifest, and every manifest entry has its folders")
    func foldersMatch() throws {
        let manifestFolders = curriculum.chapters.map(\.folder)
        #expect(try folders(in: "Chapters") == manifestFolders, "Chapters/ and curriculum.json disagree")
        let solutions = try folders(in: "Solutions")
        if !solutions.isEmpty {  // a student edition ships without Solutions/
            #expect(solutions == manifestFolders, "Solutions/ and curriculum.json disagree")
        }
        for chapter in curriculum.chapters {
            let readme = packageRoot.appendingPathComponent(chapter.readmePath).path
            #expect(FileManager.default.fileExists(atPath: readme), "\(chapter.folder) has no README.md")
            let tests = packageRoot.appendingPathComponent("Tests/\(chapter.testTarget)").path
            #expect(
                FileManager.default.fileExists(atPath: tests), "\(chapter.folder) has no Tests/\(chapter.testTarget)")
        }
    }

    @Test("Package.swift lists the same chapters, with the same module names, in the same order")
    func packageManifestMatches() throws {
        let package = try contents("Package.swift")
        let pattern = #/\("(\d\d-[A-Za-z]+)",\s*"([A-Za-z0-9]+)"\)/#
        let listed = package.matches(of: pattern).map { "\($0.output.1) \($0.output.2)" }
        #expect(listed == curriculum.chapters.map { "\($0.folder) \($0.module)" })
    }

    @Test("Module names follow ChNN + folder name, and each chapter has its command")
    func naming() {
        for chapter in curriculum.chapters {
            let name = chapter.folder.split(separator: "-", maxSplits: 1).last.map(String.init) ?? ""
            #expect(chapter.module == String(format: "Ch%02d", chapter.number) + name)
            #expect(chapter.testCommand == "swift test --filter \(chapter.module)Tests")
        }
    }

    @Test("Each chapter cites its sources and has two to four progressive hints")
    func content() {
        for chapter in curriculum.chapters {
            #expect(!chapter.concepts.isEmpty, "\(chapter.folder): no concepts")
            #expect(!chapter.sources.isEmpty, "\(chapter.folder): no sources")
            #expect(
                chapter.sources.allSatisfy { $0.url.hasPrefix("https://") }, "\(chapter.folder): source without a link")
            #expect((2...4).contains(chapter.hints.count), "\(chapter.folder): wants 2 to 4 hints")
        }
    }

    @Test("Every README section a failure message points to exists in that chapter's README")
    func lessonSectionsExist() throws {
        let sectionPattern = #/section:\s*"([^"]+)"/#
        for chapter in curriculum.chapters {
            let readme = try contents(chapter.readmePath)
            let headings = Set(
                readme.split(separator: "\n")
                    .filter { $0.hasPrefix("#") }
                    .map { $0.drop(while: { $0 == "#" }).trimmingCharacters(in: .whitespaces) })
            let testFolder = packageRoot.appendingPathComponent("Tests/\(chapter.testTarget)")
            let files = try FileManager.default.contentsOfDirectory(atPath: testFolder.path).filter {
                $0.hasSuffix(".swift")
            }
            var sections: Set<String> = []
            for file in files {
                let source = try String(contentsOf: testFolder.appendingPathComponent(file), encoding: .utf8)
                sections.formUnion(source.matches(of: sectionPattern).map { String($0.output.1) })
            }
            if let raceSection = chapter.raceSection { sections.insert(raceSection) }
            #expect(!sections.isEmpty, "\(chapter.testTarget) names no README sections")
            for section in sections.sorted() {
                #expect(headings.contains(section), "\(chapter.readmePath) has no heading '\(section)'")
            }
        }
    }

    @Test("The chapters about shared state name the README section the race check points to")
    func raceSectionsAreRead() throws {
        let withRaceSection = curriculum.chapters.filter { $0.raceSection != nil }.map(\.number)
        #expect(
            Set([2, 10]).isSubset(of: withRaceSection),
            "chapters 02 and 10 have a raceSection in Chapters/curriculum.json, and the decoder keeps it")
    }

    @Test("A chapter can be named by number, folder or module")
    func lookup() throws {
        let first = try #require(curriculum.chapters.first)
        #expect(curriculum.chapter(named: "1") == first)
        #expect(curriculum.chapter(named: "01") == first)
        #expect(curriculum.chapter(named: first.folder.uppercased()) == first)
        #expect(curriculum.chapter(named: first.module) == first)
        #expect(curriculum.chapter(named: "no-such-chapter") == nil)
    }
}
