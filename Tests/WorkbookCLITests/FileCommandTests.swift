import Foundation
import Testing
import WorkbookCLI
import WorkbookCurriculum

@Suite("The tamper check: recorded hashes of tests and instruments")
struct TamperCheckTests {
    @Test("A fresh record matches; an edited, added or removed test file is reported for its chapter")
    func testFiles() throws {
        try withTemporaryWorkbook { workbook in
            let curriculum = try workbook.curriculum
            let recorded = TestHashes.compute(for: curriculum, in: workbook.layout)
            try recorded.write(to: workbook.layout)
            #expect(try TestHashes.load(from: workbook.layout) == recorded)
            let clean = recorded.compare(with: TestHashes.compute(for: curriculum, in: workbook.layout))
            #expect(clean.isClean)
            #expect(clean.untouchedExercises == ["01-First", "02-Second"])
            #expect(
                recorded.chapters["01-First"]?.tests["Tests/Ch01FirstTests/FirstTests.swift"]
                    == SHA256.hex(Array("// checks answer() == 42\n".utf8)))

            try workbook.write("Tests/Ch01FirstTests/FirstTests.swift", "// checks nothing\n")
            try workbook.write("Tests/Ch01FirstTests/Extra.swift", "// new\n")
            try workbook.write("Chapters/02-Second/Exercise.swift", "func other() -> Int { 7 }\n")
            let report = recorded.compare(with: TestHashes.compute(for: curriculum, in: workbook.layout))
            #expect(
                report.testChanges == [
                    "01-First": ["Tests/Ch01FirstTests/Extra.swift", "Tests/Ch01FirstTests/FirstTests.swift"]
                ])
            #expect(report.modifiedFiles(of: "02-Second").isEmpty, "editing the exercise is the point")
            #expect(report.untouchedExercises == ["01-First"])
            #expect(!report.isClean)
            #expect(
                report.problems == [
                    "01-First: test file modified: Tests/Ch01FirstTests/Extra.swift",
                    "01-First: test file modified: Tests/Ch01FirstTests/FirstTests.swift",
                ])
        }
    }

    @Test("An edited shared instrument affects every chapter; a chapter added since the record is unrecorded")
    func sharedAndNewChapters() throws {
        try withTemporaryWorkbook { workbook in
            let curriculum = try workbook.curriculum
            var recorded = TestHashes.compute(for: curriculum, in: workbook.layout)
            try workbook.write("Sources/WorkbookTesting/Lesson.swift", "// always passes\n")
            recorded.chapters["02-Second"] = nil
            let report = recorded.compare(with: TestHashes.compute(for: curriculum, in: workbook.layout))
            #expect(report.sharedChanges == ["Sources/WorkbookTesting/Lesson.swift"])
            #expect(report.modifiedFiles(of: "01-First") == ["Sources/WorkbookTesting/Lesson.swift"])
            #expect(report.unrecordedChapters == ["02-Second"])
            #expect(report.modifiedFiles(of: "02-Second") == ["(no recorded hashes for 02-Second)"])
        }
    }

    @Test("hashes exits 1 on a modified test and 0 after --update")
    func hashesCommand() throws {
        try withTemporaryWorkbook { workbook in
            let printed = Captured()
            let tool = Workbook(workingDirectory: workbook.root, out: printed.out, err: printed.err)
            #expect(tool.run(["hashes"]) == 1, "no record yet")
            #expect(tool.run(["hashes", "--update"]) == 0)
            #expect(tool.run(["hashes"]) == 0)
            try workbook.write("Tests/Ch02SecondTests/SecondTests.swift", "// weakened\n")
            _ = printed.takeErrors()
            #expect(tool.run(["hashes"]) == 1)
            #expect(
                printed.takeErrors().contains(
                    "tests modified: 02-Second: test file modified: Tests/Ch02SecondTests/SecondTests.swift"))
        }
    }
}

@Suite("verify in a student edition")
struct StudentVerifyTests {
    @Test("Without Solutions/, verify checks the recorded hashes only")
    func hashesOnly() throws {
        try withTemporaryWorkbook { workbook in
            try FileManager.default.removeItem(at: workbook.root.appendingPathComponent("Solutions"))
            let printed = Captured()
            let tool = Workbook(workingDirectory: workbook.root, out: printed.out, err: printed.err)
            #expect(tool.run(["verify"]) == 1, "no record yet")
            #expect(printed.takeOutput().contains("This is a student edition"))
            #expect(tool.run(["hashes", "--update"]) == 0)
            #expect(tool.run(["verify"]) == 0)
            try workbook.write("Sources/SimulatedWorld/Server.swift", "// a server that always agrees\n")
            #expect(tool.run(["verify"]) == 1)
            #expect(printed.takeErrors().contains("shared instrument modified: Sources/SimulatedWorld/Server.swift"))
        }
    }
}

@Suite("Hints are shown progressively and remembered")
struct HintTests {
    @Test("Next hint, a chosen hint, and the last hint once all were seen")
    func progression() throws {
        let chapter = Fixture.first  // two hints
        var state = HintState()
        #expect(state.nextHint(for: chapter) == 1)
        #expect(state.nextHint(for: chapter) == 2)
        #expect(state.nextHint(for: chapter) == 2)
        #expect(state.nextHint(for: chapter, number: 1) == 1)
        #expect(state.shown[chapter.folder] == 2, "looking back does not forget what was seen")
        #expect(HintState.outOfRange(9, of: chapter) != nil, "hint 01 9 is a usage error (exit 2)")
        #expect(HintState.render(chapter, number: 2).hasPrefix("Hint 2 of 2 for chapter 01: second hint"))
        #expect(HintState.render(chapter, number: 1).contains("(next: swift run workbook hint 01)"))
    }

    @Test("The state lives in .workbook/ in the working copy, which git ignores")
    func stateFile() throws {
        try withTemporaryWorkbook { workbook in
            let printed = Captured()
            let tool = Workbook(workingDirectory: workbook.root, out: printed.out, err: printed.err)
            #expect(tool.run(["hint", "1"]) == 0)
            #expect(tool.run(["hint", "1"]) == 0)
            #expect(printed.takeOutput().contains("Hint 2 of 3 for chapter 01: closer still"))
            #expect(HintState.load(from: workbook.layout.stateURL).shown == ["01-First": 2])
            #expect(workbook.exists(".workbook/hints.json"))
            let gitignore = try String(
                contentsOf: URL(fileURLWithPath: #filePath)
                    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                    .appendingPathComponent(".gitignore"), encoding: .utf8)
            #expect(gitignore.split(separator: "\n").contains(".workbook/"))
        }
    }
}

@Suite("reset backs up the learner's files, then restores the originals")
struct ResetTests {
    @Test("From a pristine copy: the backup holds the learner's edit, the exercise is the original again")
    func fromPristineCopy() throws {
        try withTemporaryWorkbook { workbook in
            let chapter = try workbook.chapter(1)
            try workbook.write("Pristine/01-First/Exercise.swift", "func answer() -> Int { 0 }\n")
            try workbook.write("Chapters/01-First/Exercise.swift", "func answer() -> Int { 41 } // my attempt\n")
            try workbook.write("Chapters/01-First/Helper.swift", "// a file I added\n")
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let outcome = try ExerciseReset.reset(
                chapter, in: workbook.layout, from: [PristineOriginals(layout: workbook.layout)], now: now)
            guard case .restored(let source, let backup, let changed) = outcome else {
                Issue.record("expected a restore, got \(outcome)")
                return
            }
            #expect(source == "the pristine copy in Pristine/")
            #expect(backup.hasPrefix(".workbook/backups/01-First-"))
            #expect(changed == ["Chapters/01-First/Exercise.swift", "Chapters/01-First/Helper.swift"])
            #expect(workbook.read(backup + "/Exercise.swift") == "func answer() -> Int { 41 } // my attempt\n")
            #expect(workbook.read(backup + "/Helper.swift") == "// a file I added\n")
            #expect(workbook.read("Chapters/01-First/Exercise.swift") == "func answer() -> Int { 0 }\n")
            #expect(!workbook.exists("Chapters/01-First/Helper.swift"))
            #expect(workbook.read("Chapters/01-First/README.md") == "# First\n", "the reading is not an exercise file")

            let again = try ExerciseReset.reset(
                chapter, in: workbook.layout, from: [PristineOriginals(layout: workbook.layout)], now: now)
            #expect(again == .alreadyOriginal(source: "the pristine copy in Pristine/"))

            try workbook.write("Chapters/01-First/Exercise.swift", "// second attempt\n")
            guard
                case .restored(_, let secondBackup, _)? = try? ExerciseReset.reset(
                    chapter, in: workbook.layout, from: [PristineOriginals(layout: workbook.layout)], now: now)
            else {
                Issue.record("expected a second restore")
                return
            }
            #expect(secondBackup == backup + "-2", "a backup is never overwritten")
        }
    }

    @Test("From git: without recorded hashes, the last commit's version; the learner's version is in the backup")
    func fromGit() throws {
        try withTemporaryWorkbook { workbook in
            let git = { (arguments: [String]) in
                Subprocess.capture(
                    ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"] + arguments, in: workbook.root)?
                    .status
            }
            #expect(git(["init", "-q"]) == 0)
            #expect(git(["add", "."]) == 0)
            #expect(git(["commit", "-qm", "original"]) == 0)
            try workbook.write("Chapters/02-Second/Exercise.swift", "func other() -> Int { 7 }\n")
            let printed = Captured()
            let tool = Workbook(workingDirectory: workbook.root, out: printed.out, err: printed.err)
            #expect(tool.run(["reset", "02"]) == 0)
            let output = printed.takeOutput()
            #expect(output.contains("Restored Chapters/02-Second/ from git history"))
            let backup = try #require(output.firstMatch(of: #/backed up in (\S+)/\n/#)?.output.1)
            #expect(workbook.read(backup + "/Exercise.swift") == "func other() -> Int { 7 }\n")
            #expect(workbook.read("Chapters/02-Second/Exercise.swift") == "func other() -> Int { 0 }\n")
            #expect(git(["status", "--porcelain", "--", "Chapters"]) == 0)
        }
    }

    @Test("From git: the recorded original, even after the learner committed an attempt")
    func fromGitPastTheLearnersCommits() throws {
        try withTemporaryWorkbook { workbook in
            let git = { (arguments: [String]) in
                Subprocess.capture(
                    ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"] + arguments, in: workbook.root)?
                    .status
            }
            try TestHashes.compute(for: workbook.curriculum, in: workbook.layout).write(to: workbook.layout)
            #expect(git(["init", "-q"]) == 0)
            #expect(git(["add", "."]) == 0)
            #expect(git(["commit", "-qm", "original"]) == 0)
            try workbook.write("Chapters/02-Second/Exercise.swift", "func other() -> Int { 1 }\n")
            #expect(git(["commit", "-qam", "my first attempt"]) == 0)
            try workbook.write("Chapters/02-Second/Exercise.swift", "func other() -> Int { 2 }\n")
            let printed = Captured()
            let tool = Workbook(workingDirectory: workbook.root, out: printed.out, err: printed.err)
            #expect(tool.run(["reset", "02"]) == 0)
            #expect(workbook.read("Chapters/02-Second/Exercise.swift") == "func other() -> Int { 0 }\n")
        }
    }

    @Test("With no original anywhere, nothing is touched")
    func noOriginals() throws {
        try withTemporaryWorkbook { workbook in
            try workbook.write("Chapters/01-First/Exercise.swift", "// my work\n")
            #expect(throws: ExerciseReset.NoOriginals.self) {
                try ExerciseReset.reset(
                    workbook.chapter(1), in: workbook.layout, from: [PristineOriginals(layout: workbook.layout)])
            }
            #expect(workbook.read("Chapters/01-First/Exercise.swift") == "// my work\n")
        }
    }
}

@Suite("The student edition leaves the solutions out")
struct StudentEditionTests {
    private static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("File selection: no solutions, teacher scripts, build output, git or local state")
    func selection() {
        for path in [
            "Chapters/01-X/A.swift", "Tests/Ch01XTests/T.swift", "Sources/WorkbookTesting/L.swift", "README.md",
            ".gitignore", "Chapters/test-hashes.json",
        ] {
            #expect(StudentEdition.includes(path), "\(path) should be copied")
        }
        for path in [
            "Solutions/01-X/A.swift", "scripts/verify", ".ci/run", ".build/x", ".build-learner/x", ".git/HEAD",
            ".workbook/hints.json", "Pristine/01-X/A.swift", "Package.resolved", "Chapters/.DS_Store",
        ] {
            #expect(!StudentEdition.includes(path), "\(path) should stay behind")
        }
    }

    @Test("The workbook's own Package.swift becomes one without solution targets or the Solutions trait")
    func realPackageManifest() throws {
        let original = try String(contentsOf: Self.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let student = try StudentEdition.packageManifest(from: original)
        #expect(!student.contains("Solution"))
        #expect(!student.contains("traits"))
        #expect(student.contains("let chapters: [(folder: String, module: String)]"))
        #expect(student.contains("name: chapter.module + \"Tests\""))
        #expect(try StudentEdition.packageManifest(from: student) == student, "generating twice changes nothing")
    }

    @Test("Unbalanced markers or a stray solution are refused")
    func refusals() {
        #expect(throws: StudentEdition.Refusal.self) {
            try StudentEdition.packageManifest(from: "// BEGIN SOLUTIONS\nx\n")
        }
        #expect(throws: StudentEdition.Refusal.self) {
            try StudentEdition.packageManifest(from: "x\n// END SOLUTIONS\n")
        }
        #expect(throws: StudentEdition.Refusal.self) {
            try StudentEdition.packageManifest(from: "let s = \"Ch01Solution\"\n")
        }
    }

    @Test(
        "Writing: the copy has no Solutions/, a generated Package.swift and a pristine copy; a non-empty folder is refused"
    )
    func writing() throws {
        try withTemporaryWorkbook { workbook in
            // Inside the source folder: the copy must not copy itself.
            let destination = workbook.root.appendingPathComponent("student")
            let summary = try StudentEdition.write(from: workbook.layout, to: destination)
            let copy = PackageLayout(root: destination)
            let files = FileTree.files(in: ".", root: destination).map { String($0.dropFirst(2)) }
            #expect(
                !files.contains {
                    $0.hasPrefix("Solutions/") || $0.hasPrefix("scripts/") || $0.hasPrefix(".build")
                        || $0.hasPrefix("student/")
                })
            #expect(FileManager.default.fileExists(atPath: copy.url(".gitignore").path))
            #expect(FileManager.default.fileExists(atPath: copy.url("Chapters/curriculum.json").path))
            #expect(FileManager.default.fileExists(atPath: copy.url("Tests/Ch01FirstTests/FirstTests.swift").path))
            #expect(try String(contentsOf: copy.url("Package.swift"), encoding: .utf8).contains("Solutions") == false)
            #expect(
                try String(contentsOf: copy.url("Pristine/01-First/Exercise.swift"), encoding: .utf8)
                    == "func answer() -> Int { 0 }\n")
            #expect(summary.pristineFiles == 2)
            #expect(!copy.hasSolutions)

            #expect(throws: StudentEdition.Refusal.self) {
                try StudentEdition.write(from: workbook.layout, to: destination)
            }
        }
    }
}

@Suite("watch notices saves by polling, and waits for a burst of saves to settle")
struct WatchTests {
    private func snapshot(_ stamps: [String: String]) -> FileSnapshot { FileSnapshot(stamps: stamps) }

    @Test("One re-check after the files stay quiet, naming what changed")
    func debounce() {
        var debouncer = SaveDebouncer(watching: snapshot(["A.swift": "1"]), quietPeriod: 0.2)
        #expect(debouncer.observe(snapshot(["A.swift": "1"]), at: 0.0) == nil, "nothing changed")
        #expect(debouncer.observe(snapshot(["A.swift": "2"]), at: 0.1) == nil, "a save: wait for quiet")
        #expect(debouncer.observe(snapshot(["A.swift": "3"]), at: 0.2) == nil, "another save restarts the wait")
        #expect(debouncer.observe(snapshot(["A.swift": "3", "B.swift": "1"]), at: 0.3) == nil)
        #expect(debouncer.observe(snapshot(["A.swift": "3", "B.swift": "1"]), at: 0.4) == nil)
        #expect(debouncer.observe(snapshot(["A.swift": "3", "B.swift": "1"]), at: 0.5) == ["A.swift", "B.swift"])
        #expect(debouncer.observe(snapshot(["A.swift": "3", "B.swift": "1"]), at: 0.9) == nil, "fires once")
    }

    @Test("When a chapter passes, the watcher moves on to the next one not done, wrapping around")
    func movingOn() {
        let chapters = Fixture.curriculum.chapters
        var statuses = Dictionary(
            uniqueKeysWithValues: chapters.map { ($0.folder, ChapterStatus.notStarted(tests: 1)) })
        statuses[Fixture.second.folder] = .done(tests: 1)
        #expect(Fixture.curriculum.firstNotDone(after: Fixture.first, statuses: statuses) == Fixture.third)
        #expect(Fixture.curriculum.firstNotDone(after: Fixture.third, statuses: statuses) == Fixture.first)
        statuses[Fixture.first.folder] = .done(tests: 1)
        statuses[Fixture.third.folder] = .testsModified(files: ["x"])
        #expect(Fixture.curriculum.firstNotDone(after: Fixture.third, statuses: statuses) == nil)
    }

    @Test("Snapshots see an edit, an added file and a removed file")
    func snapshots() throws {
        try withTemporaryWorkbook { workbook in
            let before = FileSnapshot.take(of: "Chapters/01-First", root: workbook.root)
            #expect(before.stamps.keys.sorted() == ["Chapters/01-First/Exercise.swift", "Chapters/01-First/README.md"])
            try workbook.write("Chapters/01-First/Exercise.swift", "func answer() -> Int { 42 } // longer now\n")
            try workbook.write("Chapters/01-First/New.swift", "\n")
            try FileManager.default.removeItem(at: workbook.root.appendingPathComponent("Chapters/01-First/README.md"))
            let after = FileSnapshot.take(of: "Chapters/01-First", root: workbook.root)
            #expect(
                after.changes(since: before) == [
                    "Chapters/01-First/Exercise.swift", "Chapters/01-First/New.swift", "Chapters/01-First/README.md",
                ])
        }
    }
}
