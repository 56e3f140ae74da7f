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

@Suite("workbook grade: a chapter that does not compile costs that chapter alone")
struct GradeAroundBrokenChaptersTests {
    /// A build log with one compiler error in `chapter`'s exercise.
    static func log(breaking chapter: Curriculum.Chapter) -> String {
        "[12/40] Compiling \(chapter.module) Exercise.swift\n"
            + "/grading/Chapters/\(chapter.folder)/Exercise.swift:3:18: error: cannot convert value of type "
            + "'String' to specified type 'Int'\n\n"
    }

    @Test("Each chapter the compiler names is replaced by its original and the build made again, until it builds")
    func brokenChaptersAreReplacedOneByOne() throws {
        let passed = TestRun.parse(eventStream: try Fixture.learnerRun)
        var attempts: [Set<String>] = []
        let graded = try #require(
            try ClassGrading.gradeAroundBrokenChapters(curriculum: Fixture.curriculum) { replaced in
                attempts.append(replaced)
                // The compiler reports chapter 02 first; with 02 replaced, it reaches chapter 03.
                for chapter in [Fixture.second, Fixture.third] where !replaced.contains(chapter.folder) {
                    return LearnerRun(log: Self.log(breaking: chapter), run: nil)
                }
                return LearnerRun(log: "", run: passed)
            })
        #expect(attempts == [[], [Fixture.second.folder], [Fixture.second.folder, Fixture.third.folder]])
        #expect(graded.run.run != nil, "the last build, with the originals of 02 and 03, ran the tests")
        #expect(Set(graded.compileErrors.keys) == [Fixture.second.folder, Fixture.third.folder])
        #expect(
            graded.compileErrors[Fixture.second.folder]?.first?.hasPrefix(
                "Chapters/02-ContinuationMisuse/Exercise.swift:3:18: error: cannot convert") == true)
    }

    @Test("A build that fails outside every chapter is not made again")
    func otherFailureStops() throws {
        var count = 0
        let graded = try #require(
            try ClassGrading.gradeAroundBrokenChapters(curriculum: Fixture.curriculum) { _ in
                count += 1
                return LearnerRun(log: "/x/Sources/SimulatedWorld/A.swift:1:1: error: nope\n", run: nil)
            })
        #expect(count == 1 && graded.compileErrors.isEmpty && graded.run.run == nil)
    }

    @Test("The report: the broken chapter does not compile, with no test results; the others keep theirs")
    func reportOfABrokenChapter() throws {
        let run = LearnerRun(log: "", run: TestRun.parse(eventStream: try Fixture.learnerRun))
        let report = WorkbookReport.make(
            curriculum: Fixture.curriculum,
            statuses: [
                Fixture.first.folder: .done(tests: 4), Fixture.second.folder: .doesNotCompile(errors: ["e"]),
                Fixture.third.folder: .notStarted(tests: 0),
            ],
            run: run, tamper: nil, workbook: .init(title: "T", commit: nil, testHashes: nil), toolchain: nil,
            student: "ann")
        #expect(report.student == "ann")
        #expect(report.summary.chaptersDone == 1 && report.summary.currentChapter == Fixture.second.folder)
        #expect(report.chapters[1].status == "doesNotCompile" && report.chapters[1].compileErrors == ["e"])
        #expect(report.chapters[1].testResults.isEmpty && report.chapters[0].testResults.count == 4)
        #expect(try report.json().contains(#""student" : "ann""#))
    }

    @Test("Counts in the teacher's output agree with their nouns")
    func plurals() {
        #expect(ClassTable.counted(1, "tamper finding") == "1 tamper finding")
        #expect(ClassTable.counted(2, "tamper finding") == "2 tamper findings")
        #expect(ClassTable.counted(0, "checkout") == "0 checkouts")
    }
}

@Suite("grade --workspace: only a folder that holds nobody's work")
struct GradingWorkspaceTests {
    @Test("Missing, empty, a student edition or an earlier grading copy: yes; a checkout or the teacher's: no")
    func refusesWork() throws {
        try withTemporaryWorkbook { workbook in
            let teacher = workbook.layout
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("grading-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: scratch) }
            func folder(_ name: String, holding entries: [String]) throws -> URL {
                let url = scratch.appendingPathComponent(name)
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
                for entry in entries {
                    try FileManager.default.createDirectory(
                        at: url.appendingPathComponent(entry), withIntermediateDirectories: true)
                }
                return url
            }
            func accepted(_ url: URL) -> Bool { ClassGrading.refusal(workspace: url, teacher: teacher) == nil }

            #expect(accepted(scratch.appendingPathComponent("not-yet")))
            let empty = try folder("empty", holding: [])
            let edition = try folder("edition", holding: ["Pristine", "Chapters", "Tests"])
            let earlier = try folder("earlier", holding: [".workbook-grading-copy", "Chapters"])
            #expect(accepted(empty) && accepted(edition) && accepted(earlier))
            #expect(accepted(teacher.url(ClassGrading.workspaceFolder)))
            let clone = try folder("clone", holding: [".git", "Chapters"])
            let editionInGit = try folder("edition-in-git", holding: [".git", "Pristine"])
            let full = try folder("full", holding: ["Pristine", "Solutions"])
            let other = try folder("other", holding: ["Documents"])
            for url in [clone, editionInGit, full, other] { #expect(!accepted(url), "\(url.lastPathComponent)") }
            #expect(!accepted(teacher.root))
            let refusal = ClassGrading.refusal(workspace: teacher.root, teacher: teacher) ?? ""
            #expect(refusal.contains("holds work of its own"))
        }
    }
}
