import Foundation
import Testing
import WorkbookCurriculum
import WorkbookTesting

@testable import WorkbookCLI

/// The pseudo-language `qps`: the English catalog with every line of every text wrapped in
/// `⟦…⟧`. Each learner command and outcome runs in it, and a line the learner sees must either
/// carry a wrapped text or be made only of data (titles, test names, lessons, paths, the
/// compiler's and the runtime's own lines): a word of the tool outside the catalog fails.
@Suite("Every word a learner reads comes from the catalog (the pseudo-language)")
struct PseudoLocaleTests {
    static let strings = Language.pseudo.strings
    static let lessons = LessonTranslator(translation: Translation(code: "qps")) { _ in nil }

    /// The words of the fixtures: what the tool shows but does not write.
    static func data(_ run: TestRun?, extra: [String] = []) -> [String] {
        var pieces = extra + [Fixture.curriculum.title]
        for chapter in Fixture.curriculum.chapters {
            pieces += [chapter.title, chapter.folder, chapter.readmePath] + chapter.concepts + chapter.hints
        }
        for test in run?.tests ?? [] {
            pieces.append(test.displayName)
            for issue in test.issues {
                let shown = PackageLayout.editorPaths(in: issue, chapters: Fixture.curriculum.chapters)
                pieces += (shown + "\n" + LessonText(shown).text).split(separator: "\n").map(String.init)
            }
        }
        // Longest first, so a piece that contains another goes whole.
        return pieces.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
    }

    /// The lines of `text` that carry a word neither from the catalog nor from `data`.
    static func unwrapped(_ text: String, data: [String]) -> [String] {
        text.split(separator: "\n").map(String.init).filter { line in
            if line.contains("⟦") { return false }
            var rest = line
            for piece in data { rest = rest.replacingOccurrences(of: piece, with: " ") }
            // Truncated data ("a callback that never…") and code spans leave fragments; a word
            // of two letters or more that no data explains is the tool's own.
            for piece in data where piece.count > 12 {
                for cut in stride(from: piece.count - 1, through: 12, by: -1) {
                    rest = rest.replacingOccurrences(of: String(piece.prefix(cut)) + "…", with: " ")
                }
            }
            return rest.firstMatch(of: #/\p{L}{2,}/#) != nil
        }
    }

    static func expectWrapped(_ text: String, data: [String], _ what: String) {
        let lines = unwrapped(text, data: data)
        #expect(lines.isEmpty, "\(what): lines not from the catalog:\n\(lines.joined(separator: "\n"))")
    }

    @Test("check: a failing chapter, with its lessons and hint")
    func checkFailing() throws {
        let run = TestRun.parse(eventStream: try Fixture.learnerRun)
        let text = CheckReport.render(
            Fixture.first, status: .failing(failed: 2, of: 4), run: run, hint: .init(number: 1, more: true),
            strings: Self.strings, lessons: Self.lessons)
        #expect(text.contains("⟦"))
        Self.expectWrapped(text, data: Self.data(run, extra: ["Chapters/01-Continuations/README.md"]), "check failing")
    }

    @Test("check: a passing chapter; list: the table, the progress and the next step")
    func checkPassingAndList() throws {
        let run = TestRun.parse(eventStream: try Fixture.learnerRun)
        let data = Self.data(run)
        Self.expectWrapped(
            CheckReport.render(Fixture.first, status: .done(tests: 4), run: run, strings: Self.strings), data: data,
            "check passing")
        let statuses: [String: ChapterStatus] = [
            Fixture.first.folder: .done(tests: 4), Fixture.second.folder: .failing(failed: 3, of: 6),
            Fixture.third.folder: .lastKnown(.notStarted(tests: 2), editedSince: true),
        ]
        Self.expectWrapped(
            ProgressReport.render(Fixture.curriculum, statuses: statuses, strings: Self.strings), data: data, "list")
        let done = Dictionary(
            uniqueKeysWithValues: Fixture.curriculum.chapters.map { ($0.folder, ChapterStatus.done(tests: 1)) })
        Self.expectWrapped(
            ProgressReport.render(Fixture.curriculum, statuses: done, strings: Self.strings), data: data,
            "list, all done")
        Self.expectWrapped(
            HintState.render(Fixture.first, number: 2, readmeHasHints: true, strings: Self.strings), data: data, "hint")
    }

    @Test("A build failure, in list and check; the build's progress line")
    func buildFailure() {
        let failure = BuildFailure(log: BuildFailureTests.log, curriculum: Fixture.curriculum, root: nil)
        // The compiler's own lines are data.
        let data = Self.data(
            nil,
            extra: BuildFailureTests.log.replacingOccurrences(of: "/home/me/wb/", with: "").split(separator: "\n").map(
                String.init))
        let statuses: [String: ChapterStatus] = [
            Fixture.first.folder: .lastKnown(.done(tests: 4), editedSince: false),
            Fixture.second.folder: .doesNotCompile(errors: ["x"]),
        ]
        Self.expectWrapped(
            ProgressReport.render(Fixture.curriculum, statuses: statuses, buildFailure: failure, strings: Self.strings),
            data: data, "list after a failed build")
        Self.expectWrapped(
            CheckReport.render(
                Fixture.first, status: statuses[Fixture.first.folder]!, run: nil, buildFailure: failure,
                strings: Self.strings),
            data: data, "check after a failed build")
        var progress = BuildProgress.State()
        progress.feed("[70/150] Emitting module SimulatedWorld")
        Self.expectWrapped(progress.line(language: .pseudo), data: ["SimulatedWorld"], "build progress")
    }

    @Test("A run stopped at its time limit: the report, and the unfinished test's message")
    func timeLimit() throws {
        var run = stillRunning(module: "Ch01ContinuationsTests")
        RunAccounting.annotate(&run, ending: .timeLimit(seconds: 60), limits: RunLimits())
        let report = try #require(
            RunAccounting.report(run, ending: .timeLimit(seconds: 60), chapters: [Fixture.first], language: .pseudo))
        Self.expectWrapped(report, data: ["The answer is 42"], "the stop report")
        // The issue is recorded in English; the learner sees it from the catalog.
        let issue = try #require(run.tests.first?.issues.first)
        let shown = Self.lessons.show(issue, chapter: Fixture.first)
        Self.expectWrapped(shown.lesson.text, data: [], "the unfinished test's message")
        for ending: RunEnding in [.memoryLimit("2 GB"), .crashed(signal: 4, said: []), .endedEarly(status: 0)] {
            let stopped = try #require(
                RunAccounting.report(run, ending: ending, chapters: [Fixture.first], language: .pseudo))
            Self.expectWrapped(stopped, data: ["The answer is 42"], "the stop report (\(ending))")
        }
        var trouble = LearnerRun(log: "", run: TestRun.parse(eventStream: ""))
        trouble.language = .pseudo
        Self.expectWrapped(trouble.troubleReport ?? "", data: [], "no tests ran")
    }

    @Test("A tamper finding, in each area, with its undo")
    func tamperFindings() {
        let findings: [TamperFindings.Finding] = [
            .init(
                path: "Tests/Ch01Tests/A.swift", area: .tests(chapter: "01-Continuations"), change: .edited,
                undo: "git checkout -- Tests/Ch01Tests/A.swift"),
            .init(
                path: "Tests/Ch01Tests/B.swift", area: .tests(chapter: "01-Continuations"), change: .added,
                undo: "rm Tests/Ch01Tests/B.swift"),
            .init(
                path: "Sources/SimulatedWorld/Controls/Gate.swift", area: .simulatedWorld, change: .deleted,
                undo: "git checkout -- Sources/SimulatedWorld/Controls/Gate.swift"),
            .init(
                path: "Sources/WorkbookTesting/Lesson.swift", area: .instruments, change: .edited,
                undo: "git checkout -- Sources/WorkbookTesting/Lesson.swift"),
            .init(path: "Package.swift", area: .package, change: .edited, undo: "git checkout -- Package.swift"),
        ]
        let data = findings.flatMap { [$0.undo, $0.path] }
        Self.expectWrapped(TamperFindings.render(findings, strings: Self.strings), data: data, "tamper findings")
    }

    @Test("The command line: usage errors, help, no workbook here")
    func commandLine() {
        for arguments in [
            ["frobnicate"], ["hint", "01", "x"], ["check", "--bogus"], ["reset"], ["list", "--time-limit", "0"],
            ["hint", "--memory-limit", "2"], ["help", "nothing"],
        ] {
            let errors = Lines()
            let code = Workbook(environment: ["WORKBOOK_LANG": "qps"], out: { _ in }, err: { errors.add($0) })
                .run(arguments)
            #expect(code == 2)
            // The command's own name and what the learner typed are data.
            Self.expectWrapped(errors.text, data: arguments + [CommandName.choices], "\(arguments)")
        }
        for topic in ["list", "check", "hint", "watch", "reset", "help"] {
            let out = Lines()
            _ = Workbook(environment: ["WORKBOOK_LANG": "qps"], out: { out.add($0) }, err: { _ in }).run([
                "help", topic,
            ])
            #expect(out.text.contains("⟦"), "help \(topic)")
        }
    }

    @Test("reset in a workbook, in the pseudo-language")
    func reset() throws {
        try withTemporaryWorkbook { workbook in
            let out = Lines()
            let errors = Lines()
            let tool = Workbook(
                workingDirectory: workbook.root, environment: ["WORKBOOK_LANG": "qps"], out: { out.add($0) },
                err: { errors.add($0) })
            #expect(tool.run(["reset", "02"]) == 1)
            Self.expectWrapped(errors.text, data: ["02-Second", "Pristine"], "reset without originals")
            try workbook.write("Pristine/02-Second/Exercise.swift", "func other() -> Int { 0 }\n")
            try workbook.write("Chapters/02-Second/Exercise.swift", "func other() -> Int { 7 }\n")
            #expect(tool.run(["reset", "02"]) == 0)
            #expect(tool.run(["reset", "02"]) == 0)
            Self.expectWrapped(
                out.text,
                data: [
                    "Chapters/02-Second/Exercise.swift", "Chapters/02-Second", "02-Second", ".workbook/backups/",
                    "Pristine",
                ], "reset")
        }
    }
}

@Suite("The catalogs")
struct CatalogTests {
    @Test("Korean particles follow the last syllable of a number or a word")
    func particles() {
        #expect(Particle.after("02", "을를") == "를")
        #expect(Particle.after("04", "을를") == "를")
        #expect(Particle.after("01", "을를") == "을")
        #expect(Particle.after("챕터 05", "이가") == "가")
        #expect(Particle.after("챕터 03", "이가") == "이")
        #expect(Particle.after("챕터 01", "으로로") == "로")
        #expect(Particle.after("워크북", "은는") == "은")
        #expect(Particle.after("02-Second", "을를") == "를")
    }

    @Test("A Korean particle after a Latin name follows how the name is read")
    func particlesAfterLatinNames() {
        // The last word, as a loanword: 컨티뉴에이션스, 렛, 네트워킹, 캔슬레이션, 피커, 코드, 스위프트.
        #expect(Particle.after("Chapters/01-Continuations", "을를") == "를")
        #expect(Particle.after("08-AsyncLet", "을를") == "을")
        #expect(Particle.after("06-AsyncNetworking", "이가") == "이")
        #expect(Particle.after("09-Cancellation", "은는") == "은")
        #expect(Particle.after("03-DelegatePicker", "을를") == "를")
        #expect(Particle.after("20-TestingConcurrentCode", "이가") == "가")
        #expect(Particle.after("Chapters/01-Continuations/DownloadImage.swift", "을를") == "를")
        // A silent e, a short vowel closed by p, t, k: 센더블, 타임, 그룹, 타임아웃, 록, 아토믹; 루프, 부트, 태스크.
        #expect(Particle.after("Sendable", "으로로") == "로")
        #expect(Particle.after("Sendable", "을를") == "을")
        #expect(Particle.after("Time", "이가") == "이")
        #expect(Particle.after("TaskGroup", "을를") == "을")
        #expect(Particle.after("Timeout", "을를") == "을")
        #expect(Particle.after("Lock", "과와") == "과")
        #expect(Particle.after("Atomic", "이가") == "이")
        #expect(Particle.after("Loop", "을를") == "를")
        #expect(Particle.after("Boot", "을를") == "를")
        #expect(Particle.after("Task", "을를") == "를")
        // Capitals at the end and words without vowels by their letters: 유아이, 유알엘, 엠디.
        #expect(Particle.after("05-UI", "을를") == "를")
        #expect(Particle.after("URL", "을를") == "을")
        #expect(Particle.after("README.md", "을를") == "를")
        #expect(Particle.after("config.xml", "을를") == "을")
        // What is not read: a closing slash or quote, a part in parentheses (as in 컴퓨터(PC)를).
        #expect(Particle.after("Tests/Ch08AsyncLetTests/", "을를") == "를")
        #expect(Particle.after("`fetchPhoto(url:)`", "을를") == "를")
        #expect(Particle.after("챕터 03(Thumbnail.swift에 오류)", "이가") == "이")
        // What it can't read keeps both forms.
        #expect(Particle.after("⟦x⟧", "을를") == "을(를)")
        #expect(Particle.after("", "을를") == "을(를)")
    }

    @Test("Durations and plurals are worded by the catalog")
    func durationsAndPlurals() {
        let korean = Language.korean.catalog
        #expect(korean.fill("{limit|seconds} 뒤에도", ["limit": "0.5 seconds"]) == "0.5초 뒤에도")
        #expect(Catalog.english("build.moreErrors", ["count": 3]) == "\n… and 3 more errors.\n")
        #expect(
            Catalog.english("usage.hintOutOfRange", ["chapter": "01", "count": 1, "number": 3])
                == "hint: chapter 01 has 1 hint, so n must be 1, not 3")
    }

    @Test("Every catalog has the messages of the English one, with the same parameters")
    func complete() {
        let english = Catalog.english
        #expect(!english.messages.isEmpty, "the English catalog did not load")
        func parameters(_ message: Catalog.Message?) -> Set<String> {
            let texts: [String]
            switch message {
            case .text(let text): texts = [text]
            case .plural(let one, let other): texts = [one, other]
            case nil: texts = []
            }
            return Set(texts.flatMap { $0.matches(of: #/\{([A-Za-z@.]+)/#).map { String($0.output.1) } })
        }
        for catalog in Catalog.loaded where catalog.code != "en" {
            let missing = english.messages.keys.filter { !catalog.has($0) }.sorted()
            #expect(missing.isEmpty, "\(catalog.code).json lacks: \(missing.joined(separator: ", "))")
            for (id, message) in catalog.messages {
                #expect(english.has(id), "\(catalog.code).json has \(id), which en.json does not")
                #expect(
                    parameters(message).isSubset(of: parameters(english.messages[id]).union(["count"])),
                    "\(catalog.code).json: \(id) names a parameter the English text does not have")
            }
        }
    }
}

/// A run in which one test, "The answer is 42" of `module`, started and never ended.
func stillRunning(module: String) -> TestRun {
    let first = "\(module).S/answers()/FirstTests.swift:3:6"
    func record(_ kind: String, _ payload: String) -> String {
        #"{"kind":"\#(kind)","payload":\#(payload),"version":0}"#
    }
    return TestRun.parse(
        eventStream: [
            record("test", #"{"id":"\#(first)","kind":"function","displayName":"The answer is 42","name":"f()"}"#),
            record("event", #"{"kind":"runStarted"}"#),
            record("event", #"{"kind":"testStarted","testID":"\#(first)"}"#),
        ].joined(separator: "\n") + "\n")
}

@Suite("Test names in the learner's language")
struct TranslatedTestNameTests {
    @Test("check shows a translated test name, with the name in the test source under it")
    func translatedName() throws {
        let run = TestRun.parse(eventStream: try Fixture.learnerRun)
        let english = "An error from the server is thrown to the caller"
        let translation = Translation(
            code: "ko", chapters: [Fixture.first.folder: .init(tests: [english: "서버가 보낸 오류를 호출자에게 던집니다"])])
        let text = CheckReport.render(
            Fixture.first, status: .failing(failed: 2, of: 4), run: run, strings: .korean,
            lessons: LessonTranslator(translation: translation) { _ in nil })
        #expect(text.contains("✗ 서버가 보낸 오류를 호출자에게 던집니다\n  \"\(english)\"\n"))
    }
}
