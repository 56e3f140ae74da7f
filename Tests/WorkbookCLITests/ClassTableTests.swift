import Foundation
import Testing
import WorkbookCLI
import WorkbookCurriculum

/// A graded student whose statuses are `statuses` (by chapter number), from the captured run.
private func graded(
    _ name: String, _ statuses: [Int: ChapterStatus], tamper: TamperReport = TamperReport(), notes: [String] = []
) throws -> ClassGrading.Graded {
    let run = LearnerRun(log: "", run: TestRun.parse(eventStream: try Fixture.learnerRun))
    let byFolder = Dictionary(
        uniqueKeysWithValues: statuses.map { (Fixture.curriculum.chapters[$0.key - 1].folder, $0.value) })
    let report = WorkbookReport.make(
        curriculum: Fixture.curriculum, statuses: byFolder, run: run,
        tamper: TamperFindings.from(tamper, curriculum: Fixture.curriculum) { _, _ in nil },
        workbook: .init(title: "Concurrency Workbook", commit: nil, testHashes: nil), toolchain: nil)
    return ClassGrading.Graded(
        student: .init(name: name, url: URL(fileURLWithPath: "/submissions/\(name)")), report: report, notes: notes)
}

@Suite("workbook grade: the class table")
struct ClassTableTests {
    @Test("One row per student, in Markdown and CSV, and the lessons most students fail")
    func table() throws {
        var tamper = TamperReport()
        tamper.testChanges = ["01-Continuations": ["Tests/Ch01ContinuationsTests/A.swift"]]
        tamper.sharedChanges = ["Package.swift"]
        let students = [
            try graded("alice", [1: .done(tests: 4), 2: .done(tests: 6), 3: .done(tests: 1)]),
            try graded("bob", [1: .done(tests: 4), 2: .failing(failed: 3, of: 6), 3: .notStarted(tests: 1)]),
            try graded(
                "carol", [1: .testsModified(files: []), 2: .testsModified(files: []), 3: .testsModified(files: [])],
                tamper: tamper),
            try graded(
                "dave", [1: .failing(failed: 2, of: 4), 2: .failing(failed: 3, of: 6), 3: .noResult(reason: "x")],
                notes: ["hangs: stopped at the 20 s time limit while chapter 02 ran"]),
            ClassGrading.Graded(
                student: .init(name: "erin", url: URL(fileURLWithPath: "/submissions/erin")), report: nil,
                notes: ["not a workbook checkout (no Chapters/ folder)"]),
        ]
        let table = ClassTable(title: "Concurrency Workbook", chapterCount: 3, graded: students)
        let markdown = table.markdown()
        #expect(markdown.hasPrefix("# Concurrency Workbook: class table\n"))
        #expect(markdown.contains("| alice | 3/3 | all done | none |  |\n"))
        #expect(markdown.contains("| bob | 1/3 | 02-ContinuationMisuse | none |  |\n"))
        #expect(
            markdown.contains(
                "| carol | 0/3 | 01-Continuations | Package.swift (edited); Tests/Ch01ContinuationsTests/A.swift (edited) |  |\n"
            ))
        #expect(
            markdown.contains(
                "| dave | 0/3 | 01-Continuations | none | hangs: stopped at the 20 s time limit while chapter 02 ran |\n"
            ))
        #expect(markdown.contains("| erin | not graded | — | none | not a workbook checkout (no Chapters/ folder) |\n"))

        let csv = table.csv().split(separator: "\n").map(String.init)
        #expect(
            csv == [
                "student,chapters_done,chapter_count,current_chapter,tamper_findings,notes",
                "alice,3,3,,,",
                "bob,1,3,02-ContinuationMisuse,,",
                "carol,0,3,01-Continuations,Package.swift (edited); Tests/Ch01ContinuationsTests/A.swift (edited),",
                "dave,0,3,01-Continuations,,hangs: stopped at the 20 s time limit while chapter 02 ran",
                "erin,,3,,,not a workbook checkout (no Chapters/ folder)",
            ])

        // bob and dave both fail chapter 02's three lessons; only dave has started chapter 01.
        #expect(table.lessons.count == 5)
        #expect(table.lessons.prefix(3).allSatisfy { $0.students == 2 && $0.lesson.folder == "02-ContinuationMisuse" })
        #expect(table.lessons.suffix(2).allSatisfy { $0.students == 1 && $0.lesson.folder == "01-Continuations" })
        #expect(markdown.contains("## The lessons most students fail\n"))
        #expect(markdown.contains("| 2 | 02-ContinuationMisuse | "))
        let lessons = table.lessonsCSV().split(separator: "\n")
        #expect(lessons.first == "students,chapter,lesson" && lessons.count == 6)
        #expect(lessons.dropFirst().allSatisfy { !$0.contains(" — see '") && !$0.contains("\n") })
    }

    @Test("CSV fields with commas, quotes or line breaks are quoted")
    func csvQuoting() throws {
        let student = ClassGrading.Graded(
            student: .init(name: "o\"neil, j", url: URL(fileURLWithPath: "/x")), report: nil, notes: ["a\nb"])
        let csv = ClassTable(title: "T", chapterCount: 1, graded: [student]).csv()
        #expect(csv.hasSuffix("\n\"o\"\"neil, j\",,1,,,\"a\nb\"\n"))
    }

    @Test("Checkouts: a checkout, a folder of them, and what is neither; names made unique")
    func students() throws {
        try withTemporaryWorkbook { workbook in
            let root = workbook.root
            try workbook.write("class/ann/Chapters/01-First/Exercise.swift", "")
            try workbook.write("class/ben/README.md", "")
            try workbook.write("class/.hidden/Chapters/x", "")
            try workbook.write("other/ann/Chapters/01-First/Exercise.swift", "")
            let found = ClassGrading.students(in: [
                root.appendingPathComponent("class"), root.appendingPathComponent("other/ann"),
                root.appendingPathComponent("missing"),
            ])
            #expect(found.map(\.name) == ["ann", "ben", "ann-2", "missing"])
            #expect(found.map { $0.problem == nil } == [true, false, true, false])
        }
    }
}
