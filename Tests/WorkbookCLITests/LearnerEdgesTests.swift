import Foundation
import Testing
import WorkbookCLI
import WorkbookCurriculum

/// A curriculum with long titles and concepts, like the real one's.
private let longCurriculum: Curriculum = try! JSONDecoder().decode(
    Curriculum.self,
    from: Data(
        """
        { "title": "Concurrency Workbook", "chapters": [
          { "number": 1, "folder": "01-Continuations", "title": "Continuations: wrapping a completion handler",
            "module": "Ch01Continuations", "concepts": ["the code after an await is the continuation, run later"],
            "sources": [], "hints": ["a"], "testCommand": "swift test --filter Ch01ContinuationsTests" },
          { "number": 10, "folder": "10-TaskGroups", "title": "Task groups and the data race: many children",
            "module": "Ch10TaskGroups", "concepts": ["a task group runs a dynamic number of child tasks at once"],
            "sources": [], "hints": ["a"], "testCommand": "swift test --filter Ch10TaskGroupsTests" }
        ] }
        """.utf8))

@Suite("A new learner's rough edges")
struct LearnerEdgesTests {
    @Test("The chapter table fits in 80 columns (and in a narrower terminal), whatever the statuses")
    func tableFitsIn80Columns() {
        for width in [nil, 80, 200] as [Int?] {
            let text = ProgressReport.render(
                longCurriculum,
                statuses: [
                    "01-Continuations": .lastKnown(.done(tests: 3), editedSince: true),
                    "10-TaskGroups": .failing(failed: 2, of: 5),
                ], width: width)
            let table = text.split(separator: "\n").prefix(4).dropFirst()
            #expect(table.count == 3)
            for row in table {
                #expect(TextWrap.displayWidth(String(row)) <= min(width ?? 80, 80), "\(width ?? 0): \(row)")
            }
        }
        // A narrower terminal: the concept column shrinks to fit it.
        let narrow = ProgressReport.render(
            longCurriculum, statuses: ["01-Continuations": .notStarted(tests: 3)], width: 72)
        for row in narrow.split(separator: "\n").prefix(4) { #expect(TextWrap.displayWidth(String(row)) <= 72) }
        let korean = ProgressReport.render(
            longCurriculum, statuses: ["01-Continuations": .notStarted(tests: 3)], width: 80, strings: .korean)
        for row in korean.split(separator: "\n").prefix(4) {
            #expect(TextWrap.displayWidth(String(row)) <= 80, "\(row)")
        }
    }

    @Test("The progress line is cut to the terminal's width, so a redraw overwrites all of it")
    func progressLineFits() {
        var state = BuildProgress.State()
        state.feed("[212/359] Compiling Ch10TaskGroupsWithAVeryLongModuleName Exercise.swift")
        let line = state.line()
        #expect(BuildProgress.fit(line, width: nil) == line)
        let cut = BuildProgress.fit(line, width: 40)
        #expect(TextWrap.displayWidth("  " + cut) < 40 && cut.hasSuffix("…"))
        #expect(BuildProgress.fit("short", width: 40) == "short")
        // The line goes to stderr, so its width is stderr's terminal's, even when stdout is a file.
        let pipe = Pipe()
        let descriptor = pipe.fileHandleForWriting.fileDescriptor
        #expect(TextWrap.terminalWidth(of: descriptor, environment: ["COLUMNS": "72"]) == 72)
        #expect(TextWrap.terminalWidth(of: descriptor, environment: [:]) == nil)
    }

    @Test("A quoted line too long for the terminal wraps under itself, not under the lesson")
    func quotedLineWrapsUnderItself() {
        #expect(TextWrap.wrap("x\n    a b c d", width: 9) == "x\n    a b c\n    d")
        #expect(TextWrap.wrap("said:\n    a b c d", width: 11, indent: "  ") == "  said:\n      a b c\n      d")
    }

    @Test("A crash location is a path from the package root, which an editor can open")
    func editorPaths() {
        let chapter = longCurriculum.chapters[0]
        let said = "Ch01Continuations/DownloadImage.swift:20: Fatal error: Unexpectedly found nil"
        #expect(
            PackageLayout.editorPaths(in: said, chapters: [chapter])
                == "Chapters/01-Continuations/DownloadImage.swift:20: Fatal error: Unexpectedly found nil")
        let untouched = [
            "Chapters/01-Continuations/DownloadImage.swift:20", "Tests/Ch01ContinuationsTests/A.swift:3",
            "Ch01ContinuationsSolution/DownloadImage.swift:20",
        ]
        for text in untouched { #expect(PackageLayout.editorPaths(in: text, chapters: [chapter]) == text) }
    }

    @Test(
        "README.md's sample check: chapter 01's first hint as the tool prints it, and a crash line at a force unwrap",
        .enabled(if: TeachersReadme.exists, "a student edition's README has no sample"))
    func readmeSampleCheck() throws {
        let readme = try TeachersReadme.text
        let start = try #require(readme.range(of: "$ swift run workbook check 01\n"))
        let sample = String(readme[start.upperBound...]).components(separatedBy: "\n```")[0]
        let layout = PackageLayout(root: TeachersReadme.packageRoot)
        let chapter = try #require(try layout.loadCurriculum().chapters.first)
        #expect(sample.contains("\nHint 1 of \(chapter.hints.count): \(chapter.hints[0])\n"), "\(sample)")
        let crash = try #require(
            sample.firstMatch(of: /(Chapters\/01-[A-Za-z]+\/[A-Za-z]+\.swift):([0-9]+): Fatal error/))
        let source = try String(contentsOf: layout.url(String(crash.1)), encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(Int(crash.2))
        #expect(source.indices.contains(line - 1) && source[line - 1].contains("!)"), "line \(line) is no force unwrap")
    }

    @Test("A lesson recorded several times by one test: its sentence once, every detail under it")
    func oneSentencePerLesson() {
        let sentence =
            "the task was already cancelled: the work started anyway — see 'Cancel' in Chapters/01-Continuations/README.md"
        let id = "Ch01ContinuationsTests.T/f()/T.swift:1:1"
        func quoted(_ text: String) -> String { String(decoding: try! JSONEncoder().encode(text), as: UTF8.self) }
        func event(_ kind: String, _ detail: String? = nil) -> String {
            let messages =
                detail.map {
                    #"[{"symbol":"fail","text":"Issue recorded"},{"symbol":"details","text":"# + quoted($0) + "}]"
                } ?? "[]"
            return
                #"{"kind":"event","payload":{"kind":"\#(kind)","testID":"\#(id)","issue":{"isKnown":false},"messages":"#
                + messages + "},\"version\":0}"
        }
        let stream = [
            #"{"kind":"test","payload":{"id":"\#(id)","kind":"function","displayName":"Already cancelled","name":"f()"},"version":0}"#,
            event("testStarted"), event("issueRecorded", sentence + "\nscenario 1: fetched"),
            event("issueRecorded", sentence + "\nscenario 2: fetched"), event("issueRecorded", "another lesson"),
            event("testEnded"),
        ].joined(separator: "\n")
        let run = TestRun.parse(eventStream: stream)
        #expect(run.tests.first?.issues.count == 3)
        let text = CheckReport.render(
            longCurriculum.chapters[0], status: .failing(failed: 1, of: 1), run: run)
        #expect(text.components(separatedBy: "the task was already cancelled").count == 2, "\(text)")
        #expect(text.contains("scenario 1: fetched") && text.contains("scenario 2: fetched"))
        #expect(text.contains("another lesson"))
        let merged = LessonText.merged([LessonText("a\nx"), LessonText("b"), LessonText("a\ny")])
        #expect(merged.map(\.text) == ["a\nx\ny", "b"])
    }

    @Test("A // comment Swift Testing took from above an #expect comes after the lesson, not before it")
    func sourceCommentAfterLesson() {
        let id = "Ch04CompletionHandlersTests.T/f()/T.swift:1:1"
        let lesson = "the handler was called twice: once — see 'Once' in Chapters/04-CompletionHandlers/README.md"
        let stream = [
            #"{"kind":"test","payload":{"id":"\#(id)","kind":"function","displayName":"Once","name":"f()"},"version":0}"#,
            #"{"kind":"event","payload":{"kind":"testStarted","testID":"\#(id)","messages":[]},"version":0}"#,
            #"{"kind":"event","payload":{"kind":"issueRecorded","testID":"\#(id)","issue":{"isKnown":false},"messages":["#
                + #"{"symbol":"fail","text":"Expectation failed"},{"symbol":"details","text":"// Zero calls were reported."},"#
                + #"{"symbol":"details","text":"\#(lesson)"}]},"version":0}"#,
            #"{"kind":"event","payload":{"kind":"testEnded","testID":"\#(id)","messages":[]},"version":0}"#,
        ].joined(separator: "\n")
        let run = TestRun.parse(eventStream: stream)
        #expect(run.tests.first?.issues == [lesson + "\n// Zero calls were reported."])
    }

    @Test(
        "An exercise that is the original again is not started, even when the build fails: never last known; check says why its tests did not run"
    )
    func resetThenBrokenBuild() {
        var tamper = TamperReport()
        tamper.untouchedExercises = ["01-Continuations"]
        let chapter = longCurriculum.chapters[0]
        let status = ChapterStatus.of(chapter, run: nil, tamper: tamper)
        #expect(status == .notStarted(tests: 0))
        var known = LastKnownStatus()
        known.record(["01-Continuations": .done(tests: 3)], fingerprints: ["01-Continuations": "solved"])
        let filled = known.fillIn(["01-Continuations": status], fingerprints: ["01-Continuations": "original"])
        #expect(filled["01-Continuations"] == .notStarted(tests: 0))
        #expect(filled["01-Continuations"]?.isDoneOrLastKnownDone == false)
        #expect(
            ChapterStatus.of(chapter, run: nil, tamper: TamperReport())
                == .noResult(reason: "the workbook did not build"))
        // check says why its tests did not run, and points at the chapter that breaks the build.
        let failure = BuildFailure(log: BuildFailureTests.log, curriculum: Fixture.curriculum, root: nil)
        let text = CheckReport.render(
            Fixture.first, status: .notStarted(tests: 0), run: nil, buildFailure: failure,
            hint: .init(number: 1, more: true))
        #expect(text.contains("Status: not started\n"), "\(text)")
        #expect(text.contains("\nNext: chapter 02") && text.contains("invalid redeclaration of 'broken()'"), "\(text)")
        #expect(!text.contains("Hint 1"), "no hint for a chapter whose tests did not run")
    }

    @Test("A passing check names the next chapter to work on, as watch moves on to it; a long title wraps")
    func nextAfterPass() {
        let first = longCurriculum.chapters[0]
        let text = CheckReport.nextAfterPass(first, curriculum: longCurriculum, known: [:])
        #expect(text.hasPrefix("Next: chapter 10, Task groups and the data race: many children\n"))
        #expect(text.contains("swift run workbook check 10"))
        // A title too long for the terminal wraps under its line instead of at the terminal's edge.
        let narrow = CheckReport.nextAfterPass(first, curriculum: longCurriculum, known: [:], width: 40)
        #expect(narrow.hasPrefix("Next: chapter 10, Task groups and the\n  data race: many children\n"), "\(narrow)")
        #expect(narrow.hasSuffix(text.split(separator: "\n", maxSplits: 1)[1]))
        #expect(
            TextWrap.wrapFirstLine("one two three\n  four five six seven", width: 9)
                == "one two\n  three\n  four five six seven")
        #expect(TextWrap.wrapFirstLine("one two three", width: nil) == "one two three")
        let listed = ProgressReport.render(longCurriculum, statuses: [:], width: 40)
        #expect(listed.contains("\nNext: chapter 01, Continuations:\n  wrapping a completion handler\n"), "\(listed)")
        let done = CheckReport.nextAfterPass(
            first, curriculum: longCurriculum, known: ["10-TaskGroups": .done(tests: 5)])
        #expect(done == "All 2 chapters done. Well done!\n")
        let korean = CheckReport.nextAfterPass(first, curriculum: longCurriculum, known: [:], strings: .korean)
        #expect(korean.hasPrefix("다음: 챕터 10"))
    }

    @Test("A hint number out of range, 0 and 99 alike, is a usage error naming the range; a word too")
    func hintNumbers() throws {
        let chapter = longCurriculum.chapters[0]  // one hint
        #expect(HintState.outOfRange(nil, of: chapter) == nil)
        #expect(HintState.outOfRange(1, of: chapter) == nil)
        #expect(HintState.outOfRange(0, of: chapter)?.message == "hint: chapter 01 has 1 hint, so n must be 1, not 0")
        #expect(HintState.outOfRange(99, of: chapter)?.message == "hint: chapter 01 has 1 hint, so n must be 1, not 99")
        #expect(HintState.outOfRange(99, of: Fixture.first)?.message.contains("n must be 1 to 2, not 99") == true)
        #expect(HintState.outOfRange(99, of: Fixture.first)?.korean?.contains("1부터 2까지") == true)
        try withTemporaryWorkbook { workbook in
            let printed = Captured()
            let tool = Workbook(workingDirectory: workbook.root, out: printed.out, err: printed.err)
            #expect(tool.run(["hint", "1", "99"]) == 2)
            #expect(printed.takeErrors() == "workbook: hint: chapter 01 has 3 hints, so n must be 1 to 3, not 99\n")
            #expect(tool.run(["hint", "1", "0"]) == 2)
            #expect(printed.takeErrors() == "workbook: hint: chapter 01 has 3 hints, so n must be 1 to 3, not 0\n")
            #expect(tool.run(["hint", "1", "x"]) == 2)
            #expect(printed.takeErrors().contains("n must be a hint number"))
            #expect(tool.run(["hint", "1", "3"]) == 0)
        }
    }
}
