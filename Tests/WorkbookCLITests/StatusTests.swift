import Foundation
import Testing
import WorkbookCLI
import WorkbookCurriculum
import WorkbookTesting

/// A `swift test` event stream captured from the learner build of chapters 01 and 02
/// (exercises unfixed), plus the curriculum entries it belongs to.
enum Fixture {
    static var learnerRun: String {
        get throws {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("Fixtures/learner-run.jsonl")
            return try String(contentsOf: url, encoding: .utf8)
        }
    }

    static let curriculum: Curriculum = try! JSONDecoder().decode(
        Curriculum.self,
        from: Data(
            """
            { "title": "Concurrency Workbook", "chapters": [
              { "number": 1, "folder": "01-Continuations", "title": "Continuations: wrapping a completion handler",
                "module": "Ch01Continuations", "concepts": ["the code after an await is the continuation"], "sources": [],
                "hints": ["first hint", "second hint"], "testCommand": "swift test --filter Ch01ContinuationsTests" },
              { "number": 2, "folder": "02-ContinuationMisuse", "title": "Continuation misuse: the leak",
                "module": "Ch02ContinuationMisuse", "concepts": ["a callback that never comes leaks the continuation"],
                "sources": [], "hints": ["a", "b"], "testCommand": "swift test --filter Ch02ContinuationMisuseTests" },
              { "number": 3, "folder": "03-Later", "title": "Later: not written yet", "module": "Ch03Later",
                "concepts": ["more"], "sources": [], "hints": ["x", "y"], "testCommand": "swift test --filter Ch03LaterTests" }
            ] }
            """.utf8))

    static var first: Curriculum.Chapter { curriculum.chapters[0] }
    static var second: Curriculum.Chapter { curriculum.chapters[1] }
    static var third: Curriculum.Chapter { curriculum.chapters[2] }
}

/// One event-stream line, as Swift Testing writes it (version 0).
private func line(_ kind: String, _ payload: String) -> String {
    #"{"kind":"\#(kind)","payload":\#(payload),"version":0}"#
}
private func test(_ id: String, _ name: String) -> String {
    line("test", #"{"id":"\#(id)","kind":"function","displayName":"\#(name)","name":"f()"}"#)
}
private func event(_ kind: String, _ id: String, known: Bool = false, _ text: String = "") -> String {
    line(
        "event",
        #"{"kind":"\#(kind)","testID":"\#(id)","issue":{"isKnown":\#(known)},"messages":[{"symbol":"fail","text":"Issue recorded"},{"symbol":"details","text":"\#(text)"}]}"#
    )
}

@Suite("Status comes from the event stream of one learner run")
struct StatusTests {
    @Test("The captured run: tests are mapped to chapters by the module in their IDs")
    func capturedRun() throws {
        let run = TestRun.parse(eventStream: try Fixture.learnerRun)
        #expect(run.runEnded)
        let first = run.tests(inModule: "Ch01ContinuationsTests")
        #expect(first.count == 4)
        #expect(
            first.filter(\.failed).map(\.displayName) == [
                "An error from the server is thrown to the caller",
                "Neither image nor error becomes ImageDownloadError.missingImageAndError",
            ])
        #expect(run.tests(inModule: "Ch02ContinuationMisuseTests").count == 6)
        #expect(run.tests(inModule: "Ch02ContinuationMisuseTests").filter(\.failed).count == 3)
        #expect(run.tests.allSatisfy { $0.started && $0.ended })
    }

    @Test("Statuses: failing N of M once the exercise is edited, not started while it is the original")
    func statusesFromTheCapturedRun() throws {
        let run = TestRun.parse(eventStream: try Fixture.learnerRun)
        var tamper = TamperReport()
        #expect(ChapterStatus.of(Fixture.first, run: run, tamper: tamper) == .failing(failed: 2, of: 4))
        #expect(ChapterStatus.of(Fixture.first, run: run, tamper: nil).label == "failing 2 of 4")
        tamper.untouchedExercises = [Fixture.first.folder]
        #expect(ChapterStatus.of(Fixture.first, run: run, tamper: tamper) == .notStarted(tests: 4))
        #expect(ChapterStatus.of(Fixture.second, run: run, tamper: tamper).label == "failing 3 of 6")
        #expect(ChapterStatus.of(Fixture.third, run: run, tamper: tamper) == .noResult(reason: "none of its tests ran"))
    }

    @Test("Edited tests or instruments make a chapter 'tests modified', even when it passes")
    func tamperedChapter() {
        let id = "Ch01ContinuationsTests.S/a()/F.swift:1:1"
        let passing = TestRun.parse(
            eventStream: [test(id, "a"), event("testStarted", id), event("testEnded", id)].joined(separator: "\n"))
        #expect(ChapterStatus.of(Fixture.first, run: passing, tamper: TamperReport()) == .done(tests: 1))

        var tamper = TamperReport()
        tamper.testChanges = [Fixture.first.folder: ["Tests/Ch01ContinuationsTests/T.swift"]]
        #expect(
            ChapterStatus.of(Fixture.first, run: passing, tamper: tamper)
                == .testsModified(files: ["Tests/Ch01ContinuationsTests/T.swift"]))
        #expect(
            ChapterStatus.of(
                Fixture.first, run: passing,
                tamper: TamperReport(sharedChanges: ["Sources/WorkbookTesting/Lesson.swift"])
            ).label == "tests modified")
        var unrecorded = TamperReport()
        unrecorded.unrecordedChapters = [Fixture.first.folder]
        #expect(ChapterStatus.of(Fixture.first, run: passing, tamper: unrecorded).label == "tests modified")
    }

    @Test("Known issues do not count; a suite's issue counts for its tests; a test that never ended failed")
    func edgeCases() {
        let a = "Ch01ContinuationsTests.Suite/a()/T.swift:1:1"
        let b = "Ch01ContinuationsTests.Suite/b()/T.swift:2:1"
        let c = "Ch02ContinuationMisuseTests.Other/c()/T.swift:3:1"
        let stream = [
            test(a, "A"), test(b, "B"), test(c, "C"),
            event("testStarted", a), event("issueRecorded", a, known: true, "expected"), event("testEnded", a),
            event("testStarted", b), event("testEnded", b),
            event("issueRecorded", "Ch01ContinuationsTests.Suite", "the suite could not be set up"),
            event("testStarted", c), "{\"kind\":\"event\",\"payload\":{\"kind\":\"issueRec",  // cut short by a crash
        ].joined(separator: "\n")
        let run = TestRun.parse(eventStream: stream)
        #expect(!run.runEnded)
        #expect(run.tests.map(\.failed) == [true, true, true])
        #expect(run.tests[0].issues == ["the suite could not be set up"])
        #expect(run.tests[2].issues.isEmpty, "c failed only by never ending")
        #expect(ChapterStatus.of(Fixture.second, run: run, tamper: nil) == .failing(failed: 1, of: 1))
    }

    @Test("Without a build there is no result, and compiler errors name the chapter")
    func buildFailures() {
        let log = """
            [3/40] Compiling Ch01Continuations DownloadImage.swift
            /home/me/wb/Chapters/01-Continuations/DownloadImage.swift:12:9: error: cannot find 'x' in scope
            /home/me/wb/Chapters/01-Continuations/DownloadImage.swift:12:9: error: cannot find 'x' in scope
            /home/me/wb/Tests/Ch02ContinuationMisuseTests/LoginServiceTests.swift:3:1: error: no such module 'Nope'
            /home/me/wb/Sources/Other.swift:1:1: warning: unused
            """
        let errors = BuildDiagnostics.errorsByChapter(buildLog: log, curriculum: Fixture.curriculum)
        #expect(
            errors[Fixture.first.folder] == [
                "Chapters/01-Continuations/DownloadImage.swift:12:9: error: cannot find 'x' in scope"
            ])
        #expect(
            errors[Fixture.second.folder] == [
                "Tests/Ch02ContinuationMisuseTests/LoginServiceTests.swift:3:1: error: no such module 'Nope'"
            ])
        #expect(errors[Fixture.third.folder] == nil)
        let run = LearnerRun(log: log, run: nil)
        let statuses = run.statuses(of: Fixture.curriculum.chapters, curriculum: Fixture.curriculum, tamper: nil)
        #expect(statuses[Fixture.first.folder]?.label == "does not compile")
        #expect(statuses[Fixture.third.folder] == .noResult(reason: "the workbook did not build"))
        #expect(run.troubleReport == nil, "a failed build is a BuildFailure")
        #expect(run.buildFailure(curriculum: Fixture.curriculum)?.brokenChapters == [Fixture.first, Fixture.second])
    }
}

@Suite("What list and check print")
struct ReportTests {
    @Test("The progress bar counts done chapters")
    func progressBar() {
        #expect(ProgressReport.progressBar(done: 0, total: 12) == "[░░░░░░░░░░░░░░░░░░░░░░░░] 0/12 chapters done")
        #expect(ProgressReport.progressBar(done: 4, total: 12) == "[████████░░░░░░░░░░░░░░░░] 4/12 chapters done")
        #expect(ProgressReport.progressBar(done: 3, total: 3, width: 6) == "[██████] 3/3 chapters done")
    }

    @Test("list: a row per chapter with its status and concept, then the next chapter and its command")
    func list() {
        let statuses: [String: ChapterStatus] = [
            Fixture.first.folder: .done(tests: 4), Fixture.second.folder: .failing(failed: 3, of: 6),
            Fixture.third.folder: .notStarted(tests: 2),
        ]
        let text = ProgressReport.render(Fixture.curriculum, statuses: statuses)
        let lines = text.split(separator: "\n").map(String.init)
        // 80 columns at most: the concept gets what the other columns leave.
        #expect(lines.contains("01  Continuations        done            the code after an await is the continu…"))
        #expect(lines.contains("02  Continuation misuse  failing 3 of 6  a callback that never comes leaks the …"))
        #expect(lines.contains("03  Later                not started     more"))
        #expect(text.contains("] 1/3 chapters done"))
        #expect(text.contains("Next: chapter 02, Continuation misuse: the leak"))
        #expect(text.contains("Run:   swift run workbook check 02"))

        let allDone = Dictionary(
            uniqueKeysWithValues: Fixture.curriculum.chapters.map { ($0.folder, ChapterStatus.done(tests: 1)) })
        #expect(ProgressReport.render(Fixture.curriculum, statuses: allDone).contains("All 3 chapters done."))
    }

    @Test("check: each failing test as its lesson, no stack trace, then the first hint and the README sections")
    func check() throws {
        let run = TestRun.parse(eventStream: try Fixture.learnerRun)
        let text = CheckReport.render(
            Fixture.first, status: .failing(failed: 2, of: 4), run: run, hint: .init(number: 1, more: true))
        #expect(
            text.contains(
                "✗ An error from the server is thrown to the caller\n    the continuation is never resumed on the error path: the server called back"
            ))
        #expect(
            text.contains(
                "✗ Neither image nor error becomes ImageDownloadError.missingImageAndError\n    the (nil, nil) answer crashes the wrapper"
            ))
        #expect(!text.contains("Expectation failed"), "the lesson replaces the raw expectation")
        #expect(!text.contains("_backtrace") && !text.contains("address"))
        #expect(!text.contains("— see '"), "the README pointer is gathered at the end")
        #expect(text.contains("Hint 1 of 2: first hint"))
        #expect(
            text.hasSuffix(
                "Read: Chapters/01-Continuations/README.md\n  section \"Resume exactly once, on every path\"\n  section \"When the server sends neither\"\n"
            ))
        let hintIndex = try #require(text.range(of: "Hint 1")?.lowerBound)
        let failureIndex = try #require(text.range(of: "✗")?.lowerBound)
        #expect(failureIndex < hintIndex)
        #expect(CheckReport.render(Fixture.first, status: .done(tests: 4), run: run).contains("All 4 tests pass"))
    }

    @Test("A lesson's README pointer is read back from the message WorkbookTesting writes")
    func lessonText() {
        let lesson = ChapterReading("01-Continuations").lesson("the bug", "what happened", section: "The Section")
        let parsed = LessonText(lesson.message + "\nmore detail")
        #expect(parsed.section == "The Section")
        #expect(parsed.text == "the bug: what happened\nmore detail")
        #expect(LessonText("Expectation failed: x == 1").section == nil)
        let apostrophe = ChapterReading("10-TaskGroups").lesson("b", "e", section: "Children share their parent's fate")
        #expect(
            LessonText(apostrophe.message)
                == LessonText(
                    text: "b: e", section: "Children share their parent's fate",
                    reading: "Chapters/10-TaskGroups/README.md"))
        let early = LessonText(Lesson.endedProcessEarly(chapter: "01-Continuations").message)
        #expect(early.reading == "README.md")
        #expect(early.section == "When a test says the process ended early")
        #expect(LessonText.distinct(["a: b", "a: b\nwhy", "c"]) == ["a: b\nwhy", "c"])
    }
}
