import Foundation
import Testing
import WorkbookCLI
import WorkbookCurriculum
import WorkbookTesting

/// The Korean edition of the learner's commands (issue 14): the language chosen, chapter texts
/// and lessons from the catalogs, sections by position, and English output left as it was.
@Suite("The Korean edition: --lang, WORKBOOK_LANG, the locale, catalogs and sections")
struct KoreanEditionTests {
    static let englishReadme = """
        # Continuations

        ```swift
        # not a heading: inside a code block
        ```

        ## Resume exactly once, on every path

        ## When the server sends neither

        ## Hints
        """

    static let koreanReadme = """
        # 컨티뉴에이션

        > [English](README.md)

        ## 모든 경로에서 정확히 한 번 재개하기

        ## 서버가 이미지도 오류도 보내지 않을 때

        ## 힌트
        """

    static let translation = Translation(
        code: "ko",
        chapters: [
            "01-Continuations": .init(
                chapter: "01-Continuations",
                curriculum: .init(
                    title: "컨티뉴에이션: 완료 핸들러 감싸기", concepts: ["await 다음 코드가 컨티뉴에이션입니다"],
                    hints: ["첫 힌트", "둘째 힌트"]),
                lessons: [
                    "the continuation is never resumed on the error path": .init(
                        bug: "오류 경로에서 컨티뉴에이션을 재개하지 않습니다",
                        explanation: "서버가 오류와 함께 콜백을 호출했지만 호출자는 영원히 기다립니다"),
                    "\\(function) sent the same request more than once": .init(
                        bug: "\\(function)이(가) 같은 요청을 두 번 이상 보냈습니다", explanation: "요청 하나에 호출 하나입니다"),
                ],
                details: [
                    "\\(count) download(s) sent \\(requests) requests to the server.":
                        "다운로드 \\(count)번이 서버에 요청을 \\(requests)번 보냈습니다.",
                    "The caller was still suspended after \\(limit).": "\\(limit|seconds) 뒤에도 호출자가 일시 중단된 채였습니다.",
                    "The folder \\(folder) was left behind.": "폴더 \\(folder|이가) 남았습니다.",
                ])
        ],
        workbookLessons: [
            "the exercise ended the process before the scenario finished": .init(
                bug: "시나리오가 끝나기 전에 연습 문제가 프로세스를 끝냈습니다", explanation: "테스트의 검사가 실행되지 않았습니다",
                section: "테스트가 프로세스가 일찍 끝났다고 할 때")
        ])

    static let translator = LessonTranslator(translation: translation) { path in
        switch path {
        case "Chapters/01-Continuations/README.md": englishReadme
        case "Chapters/01-Continuations/README.ko.md": koreanReadme
        default: nil
        }
    }

    @Test("The language: --lang beats WORKBOOK_LANG, which beats LC_ALL, LC_MESSAGES and LANG; else English")
    func languageSelection() throws {
        func chosen(_ arguments: [String], _ environment: [String: String]) throws -> Language {
            try Language.choose(arguments: arguments, environment: environment).language
        }
        #expect(try chosen([], [:]) == .english)
        #expect(try chosen([], ["LANG": "ko_KR.UTF-8"]) == .korean)
        #expect(try chosen([], ["LANG": "en_US.UTF-8"]) == .english)
        #expect(try chosen([], ["LC_MESSAGES": "ko_KR.UTF-8", "LANG": "en_US.UTF-8"]) == .korean)
        #expect(try chosen([], ["LC_ALL": "C", "LANG": "ko_KR.UTF-8"]) == .english, "LC_ALL decides first")
        #expect(try chosen([], ["LC_ALL": "ko_KR.UTF-8", "LANG": "en_US.UTF-8"]) == .korean)
        #expect(try chosen([], ["WORKBOOK_LANG": "en", "LANG": "ko_KR.UTF-8"]) == .english)
        #expect(try chosen([], ["WORKBOOK_LANG": "ko", "LC_ALL": "en_US.UTF-8"]) == .korean)
        #expect(try chosen(["--lang", "en"], ["LANG": "ko_KR.UTF-8"]) == .english, "--lang en beats a Korean LANG")
        #expect(try chosen(["check", "--lang=ko", "01"], ["WORKBOOK_LANG": "en"]) == .korean)

        let (_, rest) = try Language.choose(arguments: ["check", "--lang", "ko", "01"], environment: [:])
        #expect(rest == ["check", "01"])
        #expect(throws: UsageError.self) { try Language.extract(from: ["--lang", "fr"]) }
        #expect(throws: UsageError.self) { try Language.extract(from: ["list", "--lang"]) }
    }

    @Test("The workbook in Korean: `--lang ko` outside a workbook says so in Korean; `--lang en` in English")
    func noWorkbookHere() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kocli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let errors = Lines()
        let workbook = Workbook(
            workingDirectory: folder, environment: ["LANG": "ko_KR.UTF-8"], out: { _ in }, err: { errors.add($0) })
        #expect(workbook.run(["list"]) == 2)
        #expect(errors.text.contains("여기에는 워크북이 없습니다"))
        let english = Lines()
        let inEnglish = Workbook(
            workingDirectory: folder, environment: ["LANG": "ko_KR.UTF-8"], out: { _ in }, err: { english.add($0) })
        #expect(inEnglish.run(["list", "--lang", "en"]) == 2)
        #expect(english.text.hasPrefix("workbook: no workbook here"))
    }

    @Test("Help: Korean for the learner, and it says the teacher's commands print English")
    func help() {
        let out = Lines()
        let workbook = Workbook(environment: ["WORKBOOK_LANG": "ko"], out: { out.add($0) }, err: { _ in })
        #expect(workbook.run(["--help"]) == 0)
        #expect(out.text.contains("학습자 명령") && out.text.contains("출력은 영어입니다"))
        let hint = Lines()
        _ = Workbook(environment: ["WORKBOOK_LANG": "ko"], out: { hint.add($0) }, err: { _ in }).run(["hint", "--help"])
        #expect(hint.text.hasPrefix("사용법: swift run workbook hint"))
        let report = Lines()
        _ = Workbook(environment: ["WORKBOOK_LANG": "ko"], out: { report.add($0) }, err: { _ in })
            .run(["report", "--help"])
        #expect(report.text == Help.text(for: .report) + "\n", "teacher commands stay English")
        let english = Lines()
        _ = Workbook(environment: [:], out: { english.add($0) }, err: { _ in }).run(["--help"])
        #expect(english.text == Help.overview + "\n")
    }

    @Test("A catalog key matches the start of a message; \\(name) placeholders match any text")
    func catalogLookup() throws {
        #expect(
            LessonTranslator.match(
                key: "the continuation is never resumed on the error path",
                atStartOf: "the continuation is never resumed on the error path: the server called back") == [:])
        #expect(LessonTranslator.match(key: "the continuation is never resumed", atStartOf: "the continuation") == nil)
        #expect(
            LessonTranslator.match(
                key: "the continuation is never resumed", atStartOf: "the continuation is never resumed twice: x")
                == nil, "a key is the whole bug phrase")
        let values = LessonTranslator.match(
            key: "\\(function) sent the same request more than once",
            atStartOf: "fetchFavorites() sent the same request more than once: the server saw 2")
        #expect(values == ["function": "fetchFavorites()"])

        let shown = Self.translator.show(
            "fetchFavorites() sent the same request more than once: the server saw 2 — see 'Hints' in Chapters/01-Continuations/README.md\nrequests: [\"a\", \"a\"]",
            chapter: Self.translation.apply(to: KoreanFixture.curriculum).chapters[0])
        #expect(shown.translated)
        #expect(
            shown.lesson.text == "fetchFavorites()이(가) 같은 요청을 두 번 이상 보냈습니다: 요청 하나에 호출 하나입니다\nrequests: [\"a\", \"a\"]")
        #expect(shown.lesson.section == "힌트")
        #expect(shown.lesson.reading == "Chapters/01-Continuations/README.ko.md")
    }

    @Test("A section maps to the heading at the same position; headings in code blocks don't count")
    func sectionsByPosition() {
        #expect(
            LessonTranslator.headings(in: Self.englishReadme) == [
                "Continuations", "Resume exactly once, on every path", "When the server sends neither", "Hints",
            ])
        #expect(
            Self.translator.translatedHeading(
                "When the server sends neither", in: "Chapters/01-Continuations/README.md")
                == "서버가 이미지도 오류도 보내지 않을 때")
        #expect(Self.translator.translatedHeading("No such heading", in: "Chapters/01-Continuations/README.md") == nil)
        // A workbook-wide lesson: the catalog's section, in the top-level README.ko.md.
        let shown = Self.translator.show(
            "the exercise ended the process before the scenario finished: exit(…) was called — see 'When a test says the process ended early' in README.md",
            chapter: KoreanFixture.curriculum.chapters[0])
        #expect(shown.translated)
        #expect(shown.lesson.section == "테스트가 프로세스가 일찍 끝났다고 할 때")
        #expect(shown.lesson.reading == "README.ko.md")
    }

    @Test("check in Korean: the chapter's title, status, lessons, hint and the sections of README.ko.md")
    func koreanCheckReport() throws {
        let run = TestRun.parse(eventStream: try Fixture.learnerRun)
        let chapter = Self.translation.apply(to: KoreanFixture.curriculum).chapters[0]
        let text = CheckReport.render(
            chapter, status: .failing(failed: 2, of: 4), run: run, hint: .init(number: 1, more: true),
            strings: .korean, lessons: Self.translator)
        #expect(text.hasPrefix("챕터 01: 컨티뉴에이션: 완료 핸들러 감싸기\n상태: 4개 중 2개 실패\n\n"))
        #expect(
            text.contains(
                "✗ An error from the server is thrown to the caller\n    오류 경로에서 컨티뉴에이션을 재개하지 않습니다: 서버가 오류와 함께 콜백을 호출했지만 호출자는 영원히 기다립니다\n"
            ))
        // The (nil, nil) lesson has no Korean text here: English, with a visible note.
        #expect(text.contains("    the (nil, nil) answer crashes the wrapper"))
        #expect(text.contains(Strings.korean.untranslatedLesson))
        #expect(text.contains("힌트 1/2: 첫 힌트\n  (다음 힌트: swift run workbook hint 01)\n"))
        #expect(
            text.hasSuffix(
                "읽기: Chapters/01-Continuations/README.ko.md\n  \"모든 경로에서 정확히 한 번 재개하기\" 절\n  \"서버가 이미지도 오류도 보내지 않을 때\" 절\n"
            ))
    }

    @Test("list in Korean: titles, statuses and concepts, columns aligned by terminal width, and Next")
    func koreanList() {
        let curriculum = Self.translation.apply(to: KoreanFixture.curriculum)
        let statuses: [String: ChapterStatus] = [
            "01-Continuations": .done(tests: 4), "02-ContinuationMisuse": .failing(failed: 3, of: 6),
        ]
        let text = ProgressReport.render(curriculum, statuses: statuses, strings: .korean)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains("#   챕터                 상태             개념"))
        #expect(lines.contains("01  컨티뉴에이션         완료             await 다음 코드가 컨티뉴에이션입니다"))
        #expect(lines.contains("02  Continuation misuse  6개 중 3개 실패  a callback that never comes leaks the…"))
        #expect(text.contains("] 챕터 2개 중 1개 완료"))
        #expect(
            text.contains(
                "다음: 챕터 02, Continuation misuse: the leak\n  읽기:  Chapters/02-ContinuationMisuse/README.ko.md\n"))
        #expect(text.contains("  실행:  swift run workbook check 02\n"))
    }

    @Test("hint in Korean, from the catalog's hints; a field with the wrong count stays English")
    func koreanHint() {
        let curriculum = Self.translation.apply(to: KoreanFixture.curriculum)
        let text = HintState.render(curriculum.chapters[0], number: 2, readmeHasHints: true, strings: .korean)
        #expect(text.hasPrefix("챕터 01 힌트 2/2: 둘째 힌트\n  마지막 힌트였습니다."))
        #expect(HintState.readmeHasHints(Self.koreanReadme, strings: .korean))
        var wrong = Self.translation
        wrong.chapters["01-Continuations"]?.curriculum?.hints = ["하나뿐"]
        #expect(wrong.apply(to: KoreanFixture.curriculum).chapters[0].hints == ["first hint", "second hint"])
    }

    @Test("English output is unchanged: the same text with and without the English strings")
    func englishUnchanged() throws {
        let run = TestRun.parse(eventStream: try Fixture.learnerRun)
        let english = CheckReport.render(
            Fixture.first, status: .failing(failed: 2, of: 4), run: run, hint: .init(number: 1, more: true))
        #expect(
            english
                == CheckReport.render(
                    Fixture.first, status: .failing(failed: 2, of: 4), run: run, hint: .init(number: 1, more: true),
                    strings: .english, lessons: nil))
        #expect(
            english.hasPrefix("Chapter 01: Continuations: wrapping a completion handler\nStatus: failing 2 of 4\n\n"))
        #expect(english.contains("Hint 1 of 2: first hint\n  (more: swift run workbook hint 01)\n"))
        let statuses: [String: ChapterStatus] = [Fixture.first.folder: .done(tests: 4)]
        let list = ProgressReport.render(Fixture.curriculum, statuses: statuses)
        #expect(list.contains("#   Chapter              Status     Concept\n"))
        #expect(
            list.contains(
                "] 1/3 chapters done\n\nNext: chapter 02, Continuation misuse: the leak\n  Read:  Chapters/02-ContinuationMisuse/README.md\n  Run:   swift run workbook check 02\n  Or re-check on every save:  swift run workbook watch 02\n"
            ))
        #expect(Fixture.curriculum.chapters[0].readmePath == "Chapters/01-Continuations/README.md")
        #expect(StudentReadme.render(Fixture.curriculum).hasPrefix("# Concurrency Workbook\n\nSmall, broken"))
        #expect(
            StudentReadme.render(Fixture.curriculum, korean: true).hasPrefix(
                "# Concurrency Workbook\n\n> [한국어](README.ko.md)\n\nSmall"))
    }
}

extension KoreanEditionTests {
    /// What `workbook ARGUMENTS` writes to standard error (no workbook needed) and its exit code.
    static func errors(_ arguments: [String], language: String = "ko") -> (code: Int32, text: String) {
        let errors = Lines()
        let code = Workbook(environment: ["WORKBOOK_LANG": language], out: { _ in }, err: { errors.add($0) })
            .run(arguments)
        return (code, errors.text)
    }

    @Test("Usage errors in Korean for the learner's commands; English with --lang en and for the teacher's")
    func koreanUsageErrors() {
        #expect(
            Self.errors(["frobnicate"]) == (2, "workbook: 'frobnicate' 명령은 없습니다. 다음 중에서 고르세요: \(CommandName.choices)\n")
        )
        #expect(Self.errors(["hint", "01", "x"]).text == "workbook: hint: n은 1이나 2 같은 힌트 번호여야 합니다. 받은 값: 'x'\n")
        #expect(Self.errors(["check", "--bogus"]).text.hasPrefix("workbook: check: 알 수 없는 옵션 '--bogus'"))
        #expect(Self.errors(["reset"]).text.hasPrefix("workbook: reset: <chapter>가 빠졌습니다"))
        #expect(Self.errors(["list", "--time-limit", "0"]).text.contains("0보다 큰 정수 초를 주세요"))
        #expect(Self.errors(["hint", "--memory-limit", "2"]).text.contains("테스트를 실행하는 명령에만 씁니다"))
        #expect(Self.errors(["list", "--lang", "fr"]).text.contains("알 수 없는 언어 'fr'"))
        // English is as it was.
        #expect(
            Self.errors(["hint", "01", "x", "--lang", "en"]).text
                == "workbook: hint: n must be a hint number such as 1 or 2, not 'x'\n")
        #expect(Self.errors(["frobnicate"], language: "en").text.hasPrefix("workbook: unknown command 'frobnicate'"))
        // The teacher's commands speak English.
        #expect(Self.errors(["student-edition"]).text.hasPrefix("workbook: student-edition: missing <dir>"))
    }

    @Test("An unknown chapter and reset, in Korean")
    func koreanChapterAndReset() throws {
        try withTemporaryWorkbook { workbook in
            let errors = Lines()
            let out = Lines()
            let tool = Workbook(
                workingDirectory: workbook.root, environment: ["WORKBOOK_LANG": "ko"], out: { out.add($0) },
                err: { errors.add($0) })
            #expect(tool.run(["reset", "7"]) == 2)
            #expect(errors.text.hasPrefix("workbook: '7' 챕터는 없습니다. 다음 중에서 고르세요: 01-First, 02-Second"))
            #expect(tool.run(["reset", "02"]) == 1)
            #expect(errors.text.contains("reset: 02-Second를 복원할 원본이 없습니다"))

            try workbook.write("Pristine/02-Second/Exercise.swift", "func other() -> Int { 0 }\n")
            try workbook.write("Chapters/02-Second/Exercise.swift", "func other() -> Int { 7 }\n")
            #expect(tool.run(["reset", "02"]) == 0)
            #expect(out.text.hasPrefix("여러분의 파일을 .workbook/backups/02-Second-"))
            #expect(
                out.text.contains(
                    "Chapters/02-Second 폴더를 Pristine/의 원본 사본에서 복원했습니다: Chapters/02-Second/Exercise.swift\n"))
            #expect(tool.run(["reset", "02"]) == 0)
            #expect(out.text.hasSuffix("챕터 02-Second는 이미 Pristine/의 원본 사본의 원본과 같습니다. 바뀐 것은 없습니다.\n"))
        }
    }

    @Test("A run stopped at its time limit: the report and the unfinished test's message in Korean")
    func koreanTimeLimit() throws {
        let first = "Ch01FirstTests.S/answers()/FirstTests.swift:3:6"
        func record(_ kind: String, _ payload: String) -> String {
            #"{"kind":"\#(kind)","payload":\#(payload),"version":0}"#
        }
        var run = stillRunning(module: "Ch01FirstTests")
        let chapters = try TemporaryWorkbook.chapters()
        RunAccounting.annotate(&run, ending: .timeLimit(seconds: 60), limits: RunLimits())
        let report = try #require(
            RunAccounting.report(run, ending: .timeLimit(seconds: 60), chapters: [chapters[0]], language: .korean))
        #expect(
            report.hasPrefix(
                "테스트 실행을 멈췄습니다: 시간 제한 60초를 넘겼습니다. 그때 실행 중이던 테스트:\n  챕터 01: \"The answer is 42\"\n"))
        #expect(report.contains("시간을 더 주려면: --time-limit SECONDS.\n"))
        let english = try #require(RunAccounting.report(run, ending: .timeLimit(seconds: 60), chapters: [chapters[0]]))
        #expect(english.hasPrefix("The test run was stopped: it passed its time limit of 60 seconds while these"))

        // The unfinished test's issue is recorded in English and shown in Korean.
        let issue = try #require(run.tests.first?.issues.first)
        let shown = Self.translator.show(issue, chapter: chapters[0])
        #expect(shown.translated)
        #expect(shown.lesson.text.hasPrefix("테스트 실행이 시간 제한 60초를 넘겼을 때 이 테스트가 아직 실행 중이어서 멈췄습니다."))
        // Every other ending's message too, line by line but the runtime's own words.
        let endings: [RunEnding] = [
            .memoryLimit("2 GB"), .crashed(signal: 4, said: ["Fatal error: boom"]), .crashed(signal: nil, said: []),
            .endedEarly(status: 0),
        ]
        for ending in endings {
            var stopped = TestRun.parse(
                eventStream: record("test", #"{"id":"\#(first)","kind":"function","displayName":"A","name":"f()"}"#)
                    + "\n" + record("event", #"{"kind":"testStarted","testID":"\#(first)"}"#) + "\n")
            RunAccounting.annotate(&stopped, ending: ending, limits: RunLimits())
            let message = try #require(stopped.tests.first?.issues.first)
            let lines = message.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("  ") }
            #expect(lines.allSatisfy { DetailLines.korean.translate($0) != nil }, "\(lines)")
        }
        // A child process over the memory limit.
        var child = run
        child.tests[0].issues = ["SWIFT: Could not allocate memory"]
        RunAccounting.annotate(&child, ending: .finished, limits: RunLimits())
        #expect(
            DetailLines.korean.translate(try #require(child.tests.first?.issues.first))?.hasPrefix(
                "이 테스트가 시작한 자식 프로세스에서 연습 문제가 메모리를 2 GB 넘게 써서") == true)
    }

    @Test("The build's progress line in Korean")
    func koreanBuildProgress() {
        var state = BuildProgress.State()
        state.feed("[70/150] Emitting module SimulatedWorld")
        #expect(
            state.line(barWidth: 10, language: .korean) == "[████░░░░░░] 빌드 단계 70/150, 모듈 1개 컴파일됨 (지금: SimulatedWorld)")
    }

    @Test(
        "A chapter's detail lines are translated by its templates: indentation kept, durations and particles formatted")
    func koreanChapterDetailLines() {
        let shown = Self.translator.show(
            "the continuation is never resumed on the error path: x — see 'Hints' in Chapters/01-Continuations/README.md\n"
                + "2 download(s) sent 3 requests to the server.\n  The caller was still suspended after 0.5 seconds.\n"
                + "The folder Chapters/02 was left behind.\nrequests: [\"a\"]",
            chapter: KoreanFixture.curriculum.chapters[0])
        #expect(
            shown.lesson.text.split(separator: "\n").dropFirst() == [
                "다운로드 2번이 서버에 요청을 3번 보냈습니다.", "  0.5초 뒤에도 호출자가 일시 중단된 채였습니다.",
                "폴더 Chapters/02가 남았습니다.", "requests: [\"a\"]",
            ])
        // A line that is only part of a template stays as recorded.
        #expect(
            Self.translator.translateDetail(
                "2 download(s) sent 3 requests", Self.translator.detailTemplates(of: ["01-Continuations"])) == nil)
    }

    @Test("Every line an exploration report writes is translated, but the chapter's own steps and observations")
    func koreanExplorationLines() async {
        struct Planted: Error {}
        let lesson = Lesson(chapter: "01-Continuations", bug: "a planted bug", explanation: "x", section: "Hints")
        let items = ["a", "b"]
        // A worker that never checks for cancellation and swallows failures: every finding.
        let cancels = await exploreCancelPoints(
            "process a, b", world: { $0 },
            operation: { probe in
                for item in items { probe.step("process \(item)") }
                return items
            }
        ) { run, _ in run.cancelAfter == nil ? [] : [Violation(lesson, describeOutcome(run.outcome))] }
        let failures = await exploreFailurePoints(
            "load a, b", world: { $0 },
            operation: { plan in
                for item in items where plan.nextCallFails("load \(item)") { throw Planted() }
                return items
            }
        ) { run, _ in run.failingCall == nil ? [] : [Violation(lesson, describeOutcome(run.outcome))] }
        #expect(!cancels.findings.isEmpty && !failures.findings.isEmpty)
        for report in [cancels, failures] {
            for finding in report.findings {
                let lines = "Found by \(report.instrument), in \(report.scenario):\n\(finding.description)"
                    .split(separator: "\n").map(String.init)
                for line in lines {
                    let own = line.contains(#/^\s*[0-9]+\. (process|load) [ab]$/#)
                    let shown = Self.translator.translateLine(line, [])
                    #expect(own || shown != nil, "untranslated: \(line)")
                    #expect(
                        !(shown ?? "").contains(#/[A-Za-z]{3,} [a-z]{3,}/#) || line.contains("Planted"),
                        "\(shown ?? "")")
                }
            }
        }
    }

    @Test("A model-sequence reproducer's steps are translated, and a list value item by item")
    func koreanSequenceLines() async throws {
        let lesson = Lesson(chapter: "01-Continuations", bug: "a planted bug", explanation: "x", section: "Hints")
        // A real side that stops after its first step, where the model goes on.
        let check = ModelCheck<String, String>(
            "Counter.next()", lesson: lesson, length: 3, generate: { _ in "step" },
            real: { operations in operations.isEmpty ? [] : ["nothing, nothing"] },
            model: { operations in operations.map { _ in "nothing" } })
        let report = await check.replay(["step", "step"])
        let finding = try #require(report.findings.first)
        let lines = finding.reproducer.split(separator: "\n").map(String.init)
        let shown = lines.map { Self.translator.translateLine($0, []) }
        #expect(shown.allSatisfy { $0 != nil }, "untranslated: \(zip(lines, shown).filter { $1 == nil }.map(\.0))")
        // The steps keep the learner's own operation and the subject; the instrument's words and
        // the list of "nothing"s are Korean.
        #expect(
            shown.dropFirst().allSatisfy { ($0 ?? "").contains("step → ") && ($0 ?? "").contains("Counter.next(): ") })
        #expect(shown.dropFirst().allSatisfy { !($0 ?? "").contains("nothing") && !($0 ?? "").contains("contract") })
        #expect(shown.last??.contains("(") == true)
        // A list that no template matches whole: each item alone, unknown items as recorded.
        // A value that is a list keeps its brackets and quotes whole.
        let parts = [
            (
                english: "spinner \\(spinner), posts \\(posts), \\(error), \\(requests) sent",
                translated: "\\(posts)|\\(error)"
            )
        ]
        #expect(
            Self.translator.translateDetail("spinner on, posts [\"a\", \"b\"], no error, 2 sent", parts)
                == "[\"a\", \"b\"]|no error")
        let nothing = try #require(DetailLines.korean.translate("nothing"))
        #expect(
            Self.translator.translateLine("Then it returned nothing, b, nothing.", [])?.contains(
                "\(nothing), b, \(nothing)") == true)
        // A list splits at ", " outside brackets, parentheses and quotes only: an array, a call
        // or a quoted text is one item, never two halves that a template could mistranslate.
        #expect(
            LessonTranslator.listItems(#"a, [b, c], failed(id: "d, e"), "f, g", h"#)
                == ["a", "[b, c]", #"failed(id: "d, e")"#, #""f, g""#, "h"])
        // A numbered step's frame takes numbered lines only, not every line that holds ". ".
        let frame = [(english: "\\(index). \\(step)", translated: "\\(index)) \\(step)")]
        #expect(Self.translator.translateDetail("  2. the server answers", frame) == "  2) the server answers")
        #expect(Self.translator.translateDetail("The task ended. Nothing was saved.", frame) == nil)
    }

    @Test("The instruments' fixed lines are translated; a chapter's observations stay as recorded")
    func koreanDetailLines() {
        let shown = Self.translator.show(
            "the continuation is never resumed on the error path: x — see 'Hints' in Chapters/01-Continuations/README.md\n"
                + "The awaiting task was still suspended after 2.0 seconds; nothing resumed it.\nrequests: [\"a\"]",
            chapter: KoreanFixture.curriculum.chapters[0])
        #expect(
            shown.lesson.text
                == "오류 경로에서 컨티뉴에이션을 재개하지 않습니다: 서버가 오류와 함께 콜백을 호출했지만 호출자는 영원히 기다립니다\n"
                + "기다리던 태스크가 2.0초 뒤에도 일시 중단된 채였습니다. 아무것도 재개하지 않았습니다.\nrequests: [\"a\"]")

        // Every line CrashDiagnosis writes (but the runtime's own words) has a Korean text.
        let diagnosis = CrashDiagnosis.diagnose(
            stderr: "Fatal error: Unexpectedly found nil while unwrapping an Optional value\n")
        let lines = diagnosis.split(separator: "\n").map(String.init)
        #expect(
            lines.map { DetailLines.korean.translate($0) ?? $0 } == [
                "프로세스가 트랩으로 멈췄습니다: 강제 언래핑(!)한 값이 nil이었습니다.", "  런타임의 메시지:",
                "    Fatal error: Unexpectedly found nil while unwrapping an Optional value",
            ])
        for stderr in [
            "SWIFT TASK CONTINUATION MISUSE: f() tried to resume its continuation more than once\n",
            "Could not allocate memory\n", "Fatal error: boom\n", "something\n", "",
            "[workbook] the process exited before the scenario finished\n",
        ] {
            let first = String(CrashDiagnosis.diagnose(stderr: stderr).prefix { $0 != "\n" })
            #expect(DetailLines.korean.translate(first) != nil, "\(first)")
        }
        #expect(DetailLines.korean.translate("  The last lines the process wrote:") == "  프로세스가 마지막으로 출력한 줄:")
        #expect(DetailLines.korean.translate("The Swift 6 compiler says:") == "Swift 6 컴파일러의 진단 메시지:")
        #expect(DetailLines.korean.translate("requests: [\"a\"]") == nil)
    }
}

enum KoreanFixture {
    /// The fixture's chapters 01 and 02 (chapter 02 has no Korean catalog here).
    static var curriculum: Curriculum {
        Curriculum(title: Fixture.curriculum.title, chapters: Array(Fixture.curriculum.chapters.prefix(2)))
    }
}

/// Text written by a `Workbook`, collected across its closures.
final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var parts: [String] = []
    func add(_ text: String) { lock.withLock { parts.append(text) } }
    var text: String { lock.withLock { parts.joined() } }
}
