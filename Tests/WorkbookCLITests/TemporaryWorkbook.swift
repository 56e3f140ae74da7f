import Foundation
import Testing
import WorkbookCLI
import WorkbookCurriculum

/// A small workbook in a temporary folder: two chapters with exercises, tests, solutions
/// and shared instruments, so file-level commands can be tested without a build.
struct TemporaryWorkbook {
    let layout: PackageLayout
    var root: URL { layout.root }

    static let manifest = """
        {
          "title": "Test Workbook",
          "chapters": [
            { "number": 1, "folder": "01-First", "title": "First: a chapter", "module": "Ch01First",
              "concepts": ["one idea"], "sources": [], "hints": ["look closer", "closer still", "the answer"],
              "testCommand": "swift test --filter Ch01FirstTests" },
            { "number": 2, "folder": "02-Second", "title": "Second: another", "module": "Ch02Second",
              "concepts": ["another idea"], "sources": [], "hints": ["only hint"],
              "testCommand": "swift test --filter Ch02SecondTests" }
          ]
        }
        """

    init() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "workbook-cli-test-\(UUID().uuidString)")
        layout = PackageLayout(root: root)
        try write(
            "Package.swift",
            "// swift-tools-version: 6.1\n// BEGIN SOLUTIONS\nlet solutions = \"Solutions/\"\n// END SOLUTIONS\n")
        try write("Chapters/curriculum.json", Self.manifest)
        try write("Chapters/01-First/README.md", "# First\n")
        try write("Chapters/01-First/Exercise.swift", "func answer() -> Int { 0 }\n")
        try write("Chapters/02-Second/Exercise.swift", "func other() -> Int { 0 }\n")
        try write("Solutions/01-First/Exercise.swift", "func answer() -> Int { 42 }\n")
        try write("Tests/Ch01FirstTests/FirstTests.swift", "// checks answer() == 42\n")
        try write("Tests/Ch02SecondTests/SecondTests.swift", "// checks other() == 7\n")
        try write("Sources/WorkbookTesting/Lesson.swift", "// the lesson type\n")
        try write("Sources/SimulatedWorld/Server.swift", "// a server\n")
        try write("scripts/verify", "#!/bin/sh\n")
        try write(".gitignore", ".build*/\n.workbook/\n")
        try write(".build-learner/debug/junk.o", "binary")
    }

    var curriculum: Curriculum { get throws { try layout.loadCurriculum() } }

    func chapter(_ number: Int) throws -> Curriculum.Chapter {
        try #require(curriculum.chapter(named: "\(number)"))
    }

    func write(_ path: String, _ text: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    func read(_ path: String) -> String? {
        try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
}

/// Runs `body` with a fresh temporary workbook and removes it afterwards.
func withTemporaryWorkbook<T>(_ body: (TemporaryWorkbook) throws -> T) throws -> T {
    let workbook = try TemporaryWorkbook()
    defer { workbook.remove() }
    return try body(workbook)
}
