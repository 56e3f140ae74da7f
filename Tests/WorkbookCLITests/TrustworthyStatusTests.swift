import Foundation
import Testing
import WorkbookCLI
import WorkbookCurriculum

/// Runs git in `root` with a throwaway identity; returns the exit status.
@discardableResult
private func git(_ arguments: [String], in root: URL) -> Int32? {
    Subprocess.capture(["git", "-c", "user.name=t", "-c", "user.email=t@example.com"] + arguments, in: root)?.status
}

private func passingRun(_ module: String) -> TestRun {
    let id = "\(module).S/a()/F.swift:1:1"
    let lines = [
        #"{"kind":"test","payload":{"id":"\#(id)","kind":"function","displayName":"a","name":"a()"},"version":0}"#,
        #"{"kind":"event","payload":{"kind":"testStarted","testID":"\#(id)"},"version":0}"#,
        #"{"kind":"event","payload":{"kind":"testEnded","testID":"\#(id)"},"version":0}"#,
    ]
    return TestRun.parse(eventStream: lines.joined(separator: "\n"))
}

@Suite("Status that can't be faked")
struct FakeProofStatusTests {
    @Test("An exercise identical to its original is never done, whatever the tests say")
    func untouchedIsNotDone() {
        var tamper = TamperReport()
        tamper.untouchedExercises = [Fixture.first.folder]
        let run = passingRun("Ch01ContinuationsTests")
        #expect(ChapterStatus.of(Fixture.first, run: run, tamper: tamper) == .notStarted(tests: 1))
        #expect(ChapterStatus.of(Fixture.first, run: run, tamper: TamperReport()) == .done(tests: 1))
    }

    @Test("Package.swift is fingerprinted with the instruments; an edit voids every chapter and is named")
    func packageManifest() throws {
        try withTemporaryWorkbook { workbook in
            let curriculum = try workbook.curriculum
            let recorded = TestHashes.compute(for: curriculum, in: workbook.layout)
            #expect(recorded.shared["Package.swift"] != nil)
            try workbook.write(
                "Package.swift", (workbook.read("Package.swift") ?? "") + ".default(enabledTraits: [\"Solutions\"]),\n")
            let report = recorded.compare(with: TestHashes.compute(for: curriculum, in: workbook.layout))
            #expect(report.modifiedFiles(of: "01-First") == ["Package.swift"])
            #expect(report.modifiedFiles(of: "02-Second") == ["Package.swift"])
            #expect(report.problems == ["package manifest modified: Package.swift"])
            let findings = TamperFindings.from(report, curriculum: curriculum) { _, _ in
                "git checkout HEAD -- Package.swift"
            }
            #expect(findings.findings.map(\.area) == [.package])
            let text = TamperFindings.render(findings.findings)
            #expect(text.contains("Package.swift was edited."))
            #expect(text.contains("Undo: git checkout HEAD -- Package.swift"))
        }
    }

    @Test("The tamper report tells a test edited, a test deleted, a test added and the simulated world edited")
    func kindsOfTampering() throws {
        try withTemporaryWorkbook { workbook in
            let curriculum = try workbook.curriculum
            try workbook.write("Tests/Ch02SecondTests/Other.swift", "// more checks\n")
            let recorded = TestHashes.compute(for: curriculum, in: workbook.layout)
            try workbook.write("Tests/Ch01FirstTests/FirstTests.swift", "// checks nothing\n")
            try FileManager.default.removeItem(
                at: workbook.root.appendingPathComponent("Tests/Ch02SecondTests/Other.swift"))
            try workbook.write("Tests/Ch02SecondTests/Mine.swift", "// mine\n")
            try workbook.write("Sources/SimulatedWorld/Server.swift", "// a server that always agrees\n")
            let report = recorded.compare(with: TestHashes.compute(for: curriculum, in: workbook.layout))
            let findings = TamperFindings.from(report, curriculum: curriculum) { path, _ in
                "git checkout HEAD -- \(path)"
            }
            let sentences = findings.findings.map(\.sentence)
            #expect(
                sentences.contains("Chapter 01's test file Tests/Ch01FirstTests/FirstTests.swift was edited."))
            #expect(sentences.contains("Chapter 02's test file Tests/Ch02SecondTests/Other.swift was deleted."))
            #expect(sentences.contains("A file was added to chapter 02's tests: Tests/Ch02SecondTests/Mine.swift."))
            #expect(
                sentences.contains {
                    $0.hasPrefix("The simulated world was edited: Sources/SimulatedWorld/Server.swift.")
                })
            let text = TamperFindings.render(findings.affecting("02-Second"))
            #expect(text.contains("Restore it: git checkout HEAD -- Tests/Ch02SecondTests/Other.swift"))
            #expect(text.contains("Remove it: rm Tests/Ch02SecondTests/Mine.swift"))
            #expect(!text.contains("FirstTests.swift"), "chapter 01's tests don't concern chapter 02")
            #expect(text.contains("Server.swift"), "the simulated world concerns every chapter")
        }
    }

    @Test("A deleted test file is restored from the commit that has it, even after git rm or a commit")
    func restoringDeletedTests() throws {
        try withTemporaryWorkbook { workbook in
            let curriculum = try workbook.curriculum
            try TestHashes.compute(for: curriculum, in: workbook.layout).write(to: workbook.layout)
            #expect(git(["init", "-q"], in: workbook.root) == 0)
            #expect(git(["add", "."], in: workbook.root) == 0)
            #expect(git(["commit", "-qm", "original"], in: workbook.root) == 0)
            let path = "Tests/Ch01FirstTests/FirstTests.swift"
            let hash = try #require(TestHashes.load(from: workbook.layout)?.chapters["01-First"]?.tests[path])

            #expect(git(["rm", "-q", path], in: workbook.root) == 0)
            #expect(
                GitHistory.restoreCommand(for: path, sha256: hash, in: workbook.layout)
                    == "git checkout HEAD -- \(path)")
            #expect(git(["checkout", "HEAD", "--", path], in: workbook.root) == 0)
            #expect(workbook.read(path) == "// checks answer() == 42\n", "the command works after git rm")

            #expect(git(["rm", "-q", path], in: workbook.root) == 0)
            #expect(git(["commit", "-qm", "no more tests"], in: workbook.root) == 0)
            let command = try #require(GitHistory.restoreCommand(for: path, sha256: hash, in: workbook.layout))
            #expect(command.hasPrefix("git checkout ") && command != "git checkout HEAD -- \(path)")
            #expect(git(Array(command.split(separator: " ").dropFirst().map(String.init)), in: workbook.root) == 0)
            #expect(workbook.read(path) == "// checks answer() == 42\n", "the command works after a commit")
            #expect(GitHistory.restoreCommand(for: path, sha256: "0", in: workbook.layout) == nil)
        }
    }
}

@Suite("A compile error in one chapter doesn't hide the others")
struct BuildFailureTests {
    static let log = """
        [3/5] Compiling Ch01Continuations DownloadImage.swift
        /home/me/wb/Chapters/02-ContinuationMisuse/Login.swift:30:6: error: invalid redeclaration of 'broken()'
        28 | }
        29 | func broken() {}
           |      `- note: 'broken()' previously declared here
        30 | func broken() {}
           |      `- error: invalid redeclaration of 'broken()'
        31 |

        /home/me/wb/Chapters/02-ContinuationMisuse/Login.swift:40:19: error: passing closure as a 'sending' parameter risks causing data races [#SendingClosureRisksDataRace]
        40 |     group.addTask { d[i] = i }
           |           |              `- note: closure captures reference to mutable var 'd'
           |           `- error: passing closure as a 'sending' parameter risks causing data races [#SendingClosureRisksDataRace]

        [#SendingClosureRisksDataRace]: <https://docs.swift.org/compiler/documentation/diagnostics/sending-closure-risks-data-race>
        error: emit-module command failed with exit code 1 (use -v to see invocation)
        [4/5] Emitting module Ch02ContinuationMisuse
        /home/me/wb/Chapters/02-ContinuationMisuse/Login.swift:30:6: error: invalid redeclaration of 'broken()'
        28 | }
        29 | func broken() {}
           |      `- note: 'broken()' previously declared here
        30 | func broken() {}
           |      `- error: invalid redeclaration of 'broken()'
        31 |
        """

    @Test("Each error once, with its notes; an error a chapter teaches points to its README section")
    func diagnostics() {
        let diagnostics = BuildDiagnostics.diagnostics(in: Self.log, root: URL(fileURLWithPath: "/home/me/wb"))
        #expect(diagnostics.count == 2)
        #expect(
            diagnostics[0].header
                == "Chapters/02-ContinuationMisuse/Login.swift:30:6: error: invalid redeclaration of 'broken()'")
        #expect(diagnostics[0].details.contains("   |      `- note: 'broken()' previously declared here"))
        #expect(diagnostics[1].group == "SendingClosureRisksDataRace")
        #expect(diagnostics[1].groupURL?.hasPrefix("https://docs.swift.org/") == true)

        let readme = "# Ch\n\n## Why the compiler refuses\n\n```\nerror: … [#SendingClosureRisksDataRace]\n```\n"
        let failure = BuildFailure(
            log: Self.log, curriculum: Fixture.curriculum, root: nil, readings: { $0.number == 1 ? readme : nil })
        #expect(failure.brokenChapters == [Fixture.second])
        let text = failure.renderErrors()
        #expect(text.components(separatedBy: "Login.swift:30:6: error: invalid redeclaration").count == 2, "once")
        #expect(text.contains("note: 'broken()' previously declared here"))
        #expect(
            text.contains(
                "→ Chapter 01 teaches this error: see 'Why the compiler refuses' in Chapters/01-Continuations/README.md."
            ))
    }

    @Test("list: the last known statuses, marked; the broken chapter; Next names it, with reset")
    func listAfterABrokenBuild() {
        var known = LastKnownStatus()
        known.record(
            [Fixture.first.folder: .done(tests: 4), Fixture.third.folder: .failing(failed: 1, of: 2)],
            fingerprints: [Fixture.first.folder: "a", Fixture.third.folder: "c"])
        let run = LearnerRun(log: Self.log, run: nil)
        let raw = run.statuses(of: Fixture.curriculum.chapters, curriculum: Fixture.curriculum, tamper: nil)
        let statuses = known.fillIn(raw, fingerprints: [Fixture.first.folder: "a", Fixture.third.folder: "changed"])
        #expect(statuses[Fixture.first.folder] == .lastKnown(.done(tests: 4), editedSince: false))
        #expect(statuses[Fixture.second.folder]?.label == "does not compile")
        #expect(statuses[Fixture.third.folder]?.label == "failing 1 of 2 (last known, edited since)")

        let failure = run.buildFailure(curriculum: Fixture.curriculum)
        let text = ProgressReport.render(Fixture.curriculum, statuses: statuses, buildFailure: failure)
        #expect(text.contains("01  Continuations        done (last known)"))
        #expect(text.contains("] 1/3 chapters done (1 of them last known)"))
        #expect(
            text.contains("Chapter 02 does not compile, so no chapter could be re-checked."))
        #expect(text.contains("Next: chapter 02, Continuation misuse: the leak: it does not compile."))
        #expect(text.contains("swift run workbook reset 02"))
        #expect(text.components(separatedBy: "Login.swift:30:6: error:").count == 2, "each error once")

        let check = CheckReport.render(
            Fixture.first, status: statuses[Fixture.first.folder]!, run: nil, buildFailure: failure)
        #expect(check.contains("Status: done (last known)"))
        #expect(check.contains("Chapter 02 does not compile, so chapter 01 could not be re-checked either."))
    }

    @Test("The last known statuses live in .workbook/status.json; only verdicts are kept")
    func lastKnownFile() throws {
        try withTemporaryWorkbook { workbook in
            var known = LastKnownStatus()
            known.record(
                ["01-First": .done(tests: 3), "02-Second": .doesNotCompile(errors: ["x"])],
                fingerprints: [
                    "01-First": LastKnownStatus.fingerprint(of: try workbook.chapter(1), in: workbook.layout)
                ])
            try known.save(to: workbook.layout.stateURL)
            #expect(workbook.exists(".workbook/status.json"))
            let loaded = LastKnownStatus.load(from: workbook.layout.stateURL)
            #expect(loaded.chapters.keys.sorted() == ["01-First"])
            let filled = loaded.fillIn(
                ["01-First": .noResult(reason: "x"), "02-Second": .noResult(reason: "y")],
                fingerprints: [
                    "01-First": LastKnownStatus.fingerprint(of: try workbook.chapter(1), in: workbook.layout)
                ])
            #expect(filled["01-First"] == .lastKnown(.done(tests: 3), editedSince: false))
            #expect(filled["02-Second"] == .noResult(reason: "not checked yet, and the build failed"))
        }
    }
}

@Suite("Hints, wrapping and small things")
struct SmallThingsTests {
    static let chapter: Curriculum.Chapter = try! JSONDecoder().decode(
        Curriculum.Chapter.self,
        from: Data(
            """
            { "number": 4, "folder": "04-X", "title": "X: y", "module": "Ch04X", "concepts": [], "sources": [],
              "hints": ["gentle", { "text": "about the queue", "lesson": "the handler runs off the main queue" }, "answer"],
              "testCommand": "swift test --filter Ch04XTests" }
            """.utf8))

    @Test("A hint may name its lesson; the manifest keeps plain strings for the others")
    func hintLessons() throws {
        #expect(Self.chapter.hints == ["gentle", "about the queue", "answer"])
        #expect(Self.chapter.hintLessons == [nil, "the handler runs off the main queue", nil])
        let encoded = String(decoding: try JSONEncoder().encode(Self.chapter), as: UTF8.self)
        #expect(encoded.contains(#""gentle""#) && encoded.contains(#""lesson":"the handler runs off the main queue""#))
        #expect(try JSONDecoder().decode(Curriculum.Chapter.self, from: Data(encoded.utf8)) == Self.chapter)
    }

    @Test("check shows the hint about the failure, else the first not yet seen")
    func hintForCheck() {
        var state = HintState()
        let queue = ["the handler runs off the main queue: it was called on a background thread"]
        #expect(state.hintForCheck(Self.chapter, failures: queue) == 2)
        #expect(state.hintForCheck(Self.chapter, failures: queue) == 2, "the fitting hint again")
        #expect(state.hintForCheck(Self.chapter, failures: ["something else"]) == 1)
        #expect(state.hintForCheck(Self.chapter, failures: ["something else"]) == 3)
        #expect(state.nextHint(for: Self.chapter) == 3, "all seen: the last")
        #expect(state.shown["04-X"] == 3 && state.alsoSeen == nil)
    }

    @Test("The README line about 'Hints' only when the README has that section")
    func hintsSection() {
        #expect(HintState.readmeHasHints("# T\n\n## Hints\n\n1. a\n"))
        #expect(!HintState.readmeHasHints("# T\n\nHints are below.\n"))
        #expect(!HintState.readmeHasHints(nil))
        #expect(HintState.render(Self.chapter, number: 3, readmeHasHints: true).contains("under \"Hints\""))
        #expect(!HintState.render(Self.chapter, number: 3, readmeHasHints: false).contains("Hints"))
    }

    @Test("Long messages wrap at words to the width, keeping their indent")
    func wrapping() {
        let text = TextWrap.wrap("the continuation is never resumed on the error path", width: 24, indent: "    ")
        #expect(text == "    the continuation is\n    never resumed on the\n    error path")
        #expect(TextWrap.wrap("a b", width: nil, indent: "  ") == "  a b")
        #expect(TextWrap.wrap("unbreakable-word-longer-than-width", width: 10) == "unbreakable-word-longer-than-width")
        #expect(TextWrap.terminalWidth(environment: ["COLUMNS": "60"]) == 60 || TextWrap.terminalWidth() != nil)
    }

    @Test("SwiftPM's [n/m] lines become a count of steps and compiled modules")
    func buildProgress() {
        var state = BuildProgress.State()
        for line in [
            "[0/89] Write sources", "[42/132] Compiling WorkbookCLI ExerciseReset.swift",
            "[64/142] Compiling WorkbookCLI Subprocess.swift", "[70/150] Emitting module SimulatedWorld",
        ] {
            state.feed(Substring(line))
        }
        #expect(state.step == 70 && state.total == 150)
        #expect(state.modules == ["WorkbookCLI", "SimulatedWorld"])
        #expect(state.line(barWidth: 10) == "[████░░░░░░] 70/150 build steps, 2 modules compiled (now: SimulatedWorld)")
        state.feed("Build complete! (33.01s)")
        #expect(state.finished)
    }

    @Test("From outside any workbook, the workbook the binary was built in")
    func outsideTheWorkbook() throws {
        try withTemporaryWorkbook { workbook in
            let printed = Captured()
            let tool = Workbook(
                workingDirectory: URL(fileURLWithPath: "/"),
                executable: workbook.root.appendingPathComponent(".build/debug/workbook"), out: printed.out,
                err: printed.err)
            #expect(tool.run(["hint", "1"]) == 0)
            #expect(printed.takeOutput().contains("Hint 1 of 3 for chapter 01"))
            #expect(printed.takeErrors().contains("Using the workbook at \(workbook.root.path)"))
        }
    }

    @Test("hint without a chapter: the first chapter not done, by the last known statuses")
    func currentChapter() throws {
        try withTemporaryWorkbook { workbook in
            try LastKnownStatus(chapters: [
                "01-First": .init(status: .done(tests: 1), exercise: ""),
                "02-Second": .init(status: .failing(failed: 1, of: 1), exercise: ""),
            ]).save(to: workbook.layout.stateURL)
            let printed = Captured()
            let tool = Workbook(workingDirectory: workbook.root, out: printed.out, err: printed.err)
            #expect(tool.run(["hint"]) == 0)
            #expect(printed.takeOutput().contains("Hint 1 of 1 for chapter 02: only hint"))
        }
    }

    @Test("--disable-default-traits only where the manifest declares traits (SwiftPM refuses it otherwise)")
    func declaresTraits() throws {
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let workbook = PackageLayout(root: packageRoot)
        #expect(workbook.declaresTraits == workbook.hasSolutions, "the full workbook has the Solutions trait")
        try withTemporaryWorkbook { workbook in
            #expect(!workbook.layout.declaresTraits)
            try workbook.write("Package.swift", "// traits: [] in a comment\nlet package = Package(name: \"x\")\n")
            #expect(!workbook.layout.declaresTraits)
            try workbook.write("Package.swift", "let package = Package(\n    traits: [.trait(name: \"T\")])\n")
            #expect(workbook.layout.declaresTraits)
        }
    }

    @Test("reset says which files it removed")
    func resetSaysRemoved() throws {
        try withTemporaryWorkbook { workbook in
            try workbook.write("Pristine/01-First/Exercise.swift", "func answer() -> Int { 0 }\n")
            try workbook.write("Chapters/01-First/Helper.swift", "// a file I added\n")
            let printed = Captured()
            let tool = Workbook(workingDirectory: workbook.root, out: printed.out, err: printed.err)
            #expect(tool.run(["reset", "1"]) == 0)
            let output = printed.takeOutput()
            #expect(output.contains("Removed (not part of the original): Chapters/01-First/Helper.swift"))
            #expect(!output.contains("Restored"), "the exercise file itself was already the original")
        }
    }
}

@Suite("A student edition is always the original, and written for students")
struct StudentEditionOriginalsTests {
    @Test("A solved chapter in the checkout: the edition has the original from git, and says so")
    func solvedChapter() throws {
        try withTemporaryWorkbook { workbook in
            try TestHashes.compute(for: workbook.curriculum, in: workbook.layout).write(to: workbook.layout)
            #expect(git(["init", "-q"], in: workbook.root) == 0)
            #expect(git(["add", "."], in: workbook.root) == 0)
            #expect(git(["commit", "-qm", "original"], in: workbook.root) == 0)
            try workbook.write("Chapters/01-First/Exercise.swift", "func answer() -> Int { 42 }\n")
            try workbook.write("Chapters/01-First/Extra.swift", "// the teacher's helper\n")

            let destination = workbook.root.appendingPathComponent("class")
            let printed = Captured()
            let tool = Workbook(workingDirectory: workbook.root, out: printed.out, err: printed.err)
            #expect(tool.run(["student-edition", "class"]) == 0)
            #expect(
                printed.takeOutput().contains(
                    "Chapter 01-First: the exercise in this checkout differs from its original, so the edition has the original (from git history)"
                ))
            let copy = PackageLayout(root: destination)
            let read = { (path: String) in try? String(contentsOf: copy.url(path), encoding: .utf8) }
            #expect(read("Chapters/01-First/Exercise.swift") == "func answer() -> Int { 0 }\n")
            #expect(read("Pristine/01-First/Exercise.swift") == "func answer() -> Int { 0 }\n")
            #expect(read("Chapters/01-First/Extra.swift") == nil)
            #expect(read("Chapters/01-First/README.md") == "# First\n")

            let readme = try #require(read("README.md"))
            for teacherOnly in [
                "scripts/", "Solutions", "--traits", "verify", "gates", "WORKBOOK_MODE", "student-edition",
            ] {
                #expect(!readme.contains(teacherOnly), "the student README mentions \(teacherOnly)")
            }
            #expect(readme.contains("swift run workbook check 01"))
            #expect(readme.contains("`not started`") && readme.contains("(last known)"))

            let edition = try #require(try TestHashes.load(from: copy))
            let manifest = try #require(read("Package.swift"))
            #expect(edition.shared["Package.swift"] == SHA256.hex(Array(manifest.utf8)))
            #expect(try edition.compare(with: TestHashes.compute(for: copy.loadCurriculum(), in: copy)).isClean)
        }
    }

    @Test("Refused while the tests differ from their record")
    func refusedWhenTampered() throws {
        try withTemporaryWorkbook { workbook in
            try TestHashes.compute(for: workbook.curriculum, in: workbook.layout).write(to: workbook.layout)
            try workbook.write("Tests/Ch01FirstTests/FirstTests.swift", "// weaker\n")
            #expect(throws: StudentEdition.Refusal.self) {
                try StudentEdition.write(from: workbook.layout, to: workbook.root.appendingPathComponent("class"))
            }
        }
    }
}
