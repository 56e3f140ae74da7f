import Foundation
import Testing
import WorkbookCLI
import WorkbookCurriculum
import WorkbookTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Event-stream lines for the temporary workbook's chapters (version 0, as Swift Testing writes them).
private enum Stream {
    static func record(_ kind: String, _ payload: String) -> String {
        #"{"kind":"\#(kind)","payload":\#(payload),"version":0}"#
    }
    static func test(_ id: String, _ name: String) -> String {
        record("test", #"{"id":"\#(id)","kind":"function","displayName":"\#(name)","name":"f()"}"#)
    }
    static func event(_ kind: String, _ id: String? = nil, issue text: String? = nil) -> String {
        let testID = id.map { #","testID":"\#($0)""# } ?? ""
        let messages =
            text.map { #","issue":{"isKnown":false},"messages":[{"symbol":"details","text":"\#($0)"}]"# } ?? ""
        return record("event", #"{"kind":"\#(kind)"\#(testID)\#(messages)}"#)
    }

    static let first = "Ch01FirstTests.S/answers()/FirstTests.swift:3:6"
    static let firstOther = "Ch01FirstTests.S/other()/FirstTests.swift:9:6"
    static let second = "Ch02SecondTests.S/other()/SecondTests.swift:3:6"

    /// Both chapters declared; chapter 02's test passes; chapter 01's tests start and never end.
    static let stuckInFirst =
        [
            test(first, "The answer is 42"), test(firstOther, "Another test"), test(second, "Seven"),
            event("runStarted"), event("testStarted", second), event("testEnded", second),
            event("testStarted", first), event("testStarted", firstOther),
        ].joined(separator: "\n") + "\n"

    /// Only chapter 01: one test starts and never ends.
    static let firstOnly =
        [
            test(first, "The answer is 42"), event("runStarted"), event("testStarted", first),
        ].joined(separator: "\n") + "\n"
}

/// A `sh -c` command line that plays `swift test`: it copies `stream` to the path given
/// after `--event-stream-output-path` (the run adds it), then runs `then`.
private func fakeSwiftTest(stream: URL, then script: String) -> [String] {
    [
        "sh", "-c",
        #"while [ "$1" != --event-stream-output-path ]; do shift; done; cat "\#(stream.path)" > "$2"; "# + script,
        "sh",
    ]
}

@Suite("The time and memory limits of a test run")
struct RunLimitsTests {
    @Test("--time-limit and --memory-limit are read anywhere on the line, and only by the commands that run tests")
    func options() throws {
        #expect(try RunLimits.extract(from: ["check", "04"]).limits == RunLimits())
        #expect(RunLimits().timeLimit == 60 && RunLimits().memoryLimit == 2)
        let parsed = try RunLimits.extract(from: ["check", "--time-limit", "15", "04", "--memory-limit=0.5"])
        #expect(parsed.limits == RunLimits(timeLimit: 15, memoryLimit: 0.5))
        #expect(parsed.rest == ["check", "04"])
        #expect(parsed.given)
        #expect(try RunLimits.extract(from: ["--time-limit=5"]).rest.isEmpty)
        #expect(RunLimits(memoryLimit: 0.5).memoryLimitText == "0.5 GB")
        #expect(RunLimits().memoryLimitKilobytes == 2 * 1024 * 1024)
        for bad in [["--time-limit"], ["--time-limit", "0"], ["--time-limit", "soon"], ["--memory-limit", "-1"]] {
            #expect(throws: UsageError.self) { try RunLimits.extract(from: bad) }
        }

        try withTemporaryWorkbook { workbook in
            let printed = Captured()
            let tool = Workbook(workingDirectory: workbook.root, out: printed.out, err: printed.err)
            #expect(tool.run(["hint", "1", "--time-limit", "5"]) == 2)
            #expect(
                printed.takeErrors().contains(
                    "apply to the commands that run tests: list, check, watch, report and grade"))
            #expect(tool.run(["check", "--time-limit", "x", "1"]) == 2)
            #expect(printed.takeErrors().hasPrefix("workbook: --time-limit: give a whole number of seconds"))
            #expect(tool.run(["check", "--help", "--time-limit", "5"]) == 0)
            #expect(printed.takeOutput().contains("--time-limit SECONDS"))
        }
    }

    @Test("A run stopped at its time limit names the tests still running, and its whole process tree is gone")
    func timeLimit() throws {
        try withTemporaryWorkbook { workbook in
            try workbook.write("stream.jsonl", Stream.firstOnly)
            let pids = workbook.root.appendingPathComponent("pids")
            // A child, a grandchild, and a child in a process group of its own, like SwiftPM's test process.
            let script = """
                sleep 300 & echo $! >> "\(pids.path)"
                sh -c 'echo $$ >> "\(pids.path)"; exec sleep 301' &
                set -m; sleep 302 & echo $! >> "\(pids.path)"
                echo $$ >> "\(pids.path)"; wait
                """
            let chapter = try workbook.chapter(1)
            let said = Captured()
            let run = try LearnerRun.limitedRun(
                fakeSwiftTest(stream: workbook.root.appendingPathComponent("stream.jsonl"), then: script),
                chapters: [chapter], in: workbook.layout, environment: ProcessInfo.processInfo.environment,
                limits: RunLimits(timeLimit: 1), say: said.err)
            #expect(run.ending == .timeLimit(seconds: 1))
            let test = try #require(run.run?.tests.first)
            #expect(test.failed)
            #expect(test.issues.count == 1)
            #expect(
                test.issues.first?.contains("still running when the test run passed its time limit of 1 seconds")
                    == true)
            #expect(test.issues.first?.contains("a loop that never ends or never awaits") == true)
            let report = try #require(run.stopReport)
            #expect(report.contains("passed its time limit of 1 seconds while these tests were running:"))
            #expect(report.contains(#"chapter 01: "The answer is 42""#))
            #expect(report.contains("To allow more time: --time-limit SECONDS"))
            #expect(run.troubleReport == report)
            #expect(
                run.statuses(of: [chapter], curriculum: try workbook.curriculum, tamper: nil)[chapter.folder]
                    == .failing(failed: 1, of: 1))

            let started = try String(contentsOf: pids, encoding: .utf8).split(separator: "\n").compactMap { pid_t($0) }
            #expect(started.count == 4)
            let left = started.filter(ProcessTree.isRunning)
            #expect(left.isEmpty, "still running: \(left)")
            let folders = try FileManager.default.contentsOfDirectory(
                atPath: workbook.root.appendingPathComponent(PackageLayout.learnerScratchPath + "/workbook-tmp").path)
            #expect(!folders.contains { $0.hasPrefix("run-") }, "the run's temporary folder is removed")
        }
    }

    @Test("A test process that ends early with status 0 fails the running test; nothing counts as passing")
    func endedEarly() throws {
        try withTemporaryWorkbook { workbook in
            try workbook.write("stream.jsonl", Stream.stuckInFirst)
            let run = try LearnerRun.limitedRun(
                fakeSwiftTest(stream: workbook.root.appendingPathComponent("stream.jsonl"), then: "exit 0"),
                chapters: try workbook.curriculum.chapters, in: workbook.layout,
                environment: ProcessInfo.processInfo.environment, limits: RunLimits(), say: { _ in })
            #expect(run.ending == .endedEarly(status: 0))
            let issues = run.run?.tests.first { $0.id == Stream.first }?.issues ?? []
            #expect(
                issues.first?.contains("the test process ended while this test was running (exit status 0)") == true)
            let statuses = run.statuses(
                of: try workbook.curriculum.chapters, curriculum: try workbook.curriculum, tamper: nil)
            #expect(statuses["02-Second"] == .done(tests: 1), "a chapter that finished keeps its result")
            #expect(statuses["01-First"]?.isDone == false)
            #expect(
                run.stopReport?.contains("The test run ended early: the test process ended (exit status 0)") == true)
            #expect(run.stopReport?.contains(#"chapter 01: "Another test""#) == true)
        }
    }

    @Test("In a run of several chapters, untouched exercises are named as waiting, not as the cause")
    func waitingChapters() throws {
        let late = "Ch02SecondTests.S/late()/S.swift:1:1"
        var run = TestRun.parse(
            eventStream: Stream.stuckInFirst + Stream.test(late, "Late") + "\n" + Stream.event("testStarted", late))
        let chapters = try TemporaryWorkbook.chapters()
        RunAccounting.annotate(&run, ending: .timeLimit(seconds: 60), limits: RunLimits())
        let report = try #require(
            RunAccounting.report(run, ending: .timeLimit(seconds: 60), chapters: chapters, untouched: ["02-Second"]))
        #expect(report.contains(#"chapter 01: "The answer is 42""#))
        #expect(!report.contains(#""Late""#), "the waiting chapter's test is not listed as the cause")
        #expect(report.contains("Tests of chapter 02 were running too, most likely waiting for chapter 01"))
        #expect(report.contains("swift run workbook check 01"))

        var learnerRun = LearnerRun(log: "", run: run)
        learnerRun.ending = .timeLimit(seconds: 60)
        learnerRun.chapterCount = 2
        let curriculum = try TemporaryWorkbook.curriculumValue()
        let statuses = learnerRun.statuses(of: chapters, curriculum: curriculum, tamper: nil)
        #expect(
            statuses["01-First"] == .noResult(reason: "the test run was stopped before its tests finished"),
            "in the table, a chapter whose only failures are unfinished tests has no result")
    }

    @Test("A crash of the test process shows the runtime's message; running out of memory is said as such")
    func crashesAndMemory() throws {
        let run = TestRun.parse(eventStream: Stream.firstOnly)
        let crashLog = """
            Ch01First/Answer.swift:3: Fatal error: Unexpectedly found nil while unwrapping an Optional value
            *** Program crashed: Illegal instruction at 0x00007f6cea96df7f ***
            Thread 0 crashed:
            r14 0x00007f92800603e0  46 61 74 61 6c 20 65 72 72 6f 72 3a 20 66 61 69  Fatal error: fai
            0 0x00007f… in answer() at /w/Chapters/01-First/Answer.swift:3
            error: Process '/w/.build-learner/debug/WPackageTests.xctest' exited with unexpected signal code 4
            """
        let crash = RunAccounting.ending(of: run, log: crashLog, status: 1, passedTimeLimit: false, limits: RunLimits())
        #expect(
            crash
                == .crashed(
                    signal: 4,
                    said: [
                        "Ch01First/Answer.swift:3: Fatal error: Unexpectedly found nil while unwrapping an Optional value",
                        "*** Program crashed: Illegal instruction at 0x00007f6cea96df7f ***",
                    ]))
        var crashed = run
        RunAccounting.annotate(&crashed, ending: crash, limits: RunLimits())
        #expect(
            crashed.tests[0].issues.first?.contains("The runtime said:\n  Ch01First/Answer.swift:3: Fatal error")
                == true)

        let memoryLog = """
            Fatal error: failed to allocate 1048608 bytes of memory with alignment 8
            *** Program crashed: Aborted at 0x0000000000002503 ***
            r14 0x00007f92800603e0  46 61 74 61 6c 20 65 72 72 6f 72 3a 20 66 61 69  Fatal error: fai
            error: Process '/w/.build-learner/debug/WPackageTests.xctest' exited with unexpected signal code 6
            """
        let memory = RunAccounting.ending(
            of: run, log: memoryLog, status: 1, passedTimeLimit: false, limits: RunLimits())
        #expect(memory == .memoryLimit("2 GB"))
        var outOfMemory = run
        RunAccounting.annotate(&outOfMemory, ending: memory, limits: RunLimits())
        #expect(outOfMemory.tests[0].issues.first?.contains("used more than 2 GB of memory") == true)

        // An exit test's child that ran out of memory: the test recorded its lesson with the
        // runtime's words; the lesson ("resumed twice") is not what happened, so it goes.
        let lesson = "the continuation is resumed twice — see 'Resume once' in Chapters/01-First/README.md"
        var child = TestRun.parse(
            eventStream: [
                Stream.test(Stream.first, "The answer is 42"), Stream.event("runStarted"),
                Stream.event("testStarted", Stream.first),
                Stream.event(
                    "issueRecorded", Stream.first,
                    issue: lesson + "\\nThe runtime said:\\n    Fatal error: failed to allocate 64 bytes of memory"),
                Stream.event("testEnded", Stream.first), Stream.event("runEnded"),
            ].joined(separator: "\n"))
        let finished = RunAccounting.ending(of: child, log: "", status: 1, passedTimeLimit: false, limits: RunLimits())
        #expect(finished == .finished)
        RunAccounting.annotate(&child, ending: finished, limits: RunLimits())
        #expect(child.tests[0].issues.count == 1)
        #expect(child.tests[0].issues[0].hasPrefix("the exercise used more than 2 GB of memory in a child process"))
        #expect(!child.tests[0].issues[0].contains("resumed twice"))
    }

    #if os(Linux)
        @Test("The memory limit applies to every process of the run, and one that passes it is reported")
        func memoryLimit() throws {
            try withTemporaryWorkbook { workbook in
                let limited = try LimitedRun.run(
                    ["sh", "-c", "ulimit -d"], in: workbook.root, environment: ProcessInfo.processInfo.environment,
                    timeLimit: nil, clockStart: nil, memoryLimitKilobytes: 262_144)
                #expect(limited.output == "262144\n")
                let hog = try LimitedRun.run(
                    ["awk", #"BEGIN { s = "x"; while (1) s = s s }"#], in: workbook.root,
                    environment: ProcessInfo.processInfo.environment, timeLimit: 60, clockStart: nil,
                    memoryLimitKilobytes: 262_144)
                #expect(hog.status != 0)
                #expect(!hog.passedTimeLimit)
                #expect(RunAccounting.mentionsOutOfMemory(hog.output), "awk said: \(hog.output)")
            }
        }
    #endif

    @Test("Captured output keeps its start and its end, and says how much was left out")
    func outputCap() throws {
        try withTemporaryWorkbook { workbook in
            let outcome = try LimitedRun.run(
                ["sh", "-c", "echo first; yes 'a line in a loop' | head -n 200000; echo last"], in: workbook.root,
                environment: ProcessInfo.processInfo.environment, timeLimit: nil, clockStart: nil,
                memoryLimitKilobytes: nil, outputCap: 10_000)
            #expect(outcome.status == 0)
            #expect(outcome.output.hasPrefix("first\na line in a loop\n"))
            #expect(outcome.output.hasSuffix("a line in a loop\nlast\n"))
            #expect(outcome.output.contains("bytes of output left out"))
            #expect(outcome.output.utf8.count < 25_000)
        }
        let small = CappedOutput(cap: 4)
        small.append(Data("abcdefghijklmnop".utf8))
        #expect(small.text == "abcd\n… (8 bytes of output left out) …\nmnop")
    }

    @Test("Children get a temporary folder of the tool's own, removed afterwards; stale ones are swept")
    func temporaryFolder() throws {
        try withTemporaryWorkbook { workbook in
            try workbook.write(".build-learner/workbook-tmp/run-999999999-dead/TemporaryDirectory.x/a", "left")
            try workbook.write(".build-learner/workbook-tmp/keep.txt", "not a run folder")
            // SwiftPM's lock for a path is the path with `/` as `_`, in the temporary directory.
            func lock(_ path: String) -> String { path.replacingOccurrences(of: "/", with: "_") + ".lock" }
            let ownLock = lock(workbook.root.appendingPathComponent(".build").path)
            let cacheLock = lock(FileManager.default.homeDirectoryForCurrentUser.path + "/.swiftpm")
            let otherLock = lock("/elsewhere/another-package/.build")
            for name in [ownLock, cacheLock, otherLock] { try workbook.write("system-tmp/" + name, "") }
            try workbook.write("system-tmp/TemporaryDirectory.old/x", "not a lock")
            try workbook.write("system-tmp/plain.lock", "not SwiftPM's: no leading underscore")
            try workbook.write("system-tmp/_notes.txt", "not a lock")
            let system = workbook.root.appendingPathComponent("system-tmp")
            let folder = ToolTemporaryFolder.make(
                in: workbook.layout, scratchPath: ".build-learner", systemTemporaryDirectory: system)
            #expect(!workbook.exists(".build-learner/workbook-tmp/run-999999999-dead"))
            #expect(workbook.exists(".build-learner/workbook-tmp/keep.txt"))

            // SwiftPM's locks: the system's, and the scratch path's own in a folder every run shares.
            let links = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
            let scratch = workbook.root.appendingPathComponent(".build-learner").path
            let scratchLock = scratch.replacingOccurrences(of: "/", with: "_") + ".lock"
            // This package's and the SwiftPM caches' locks, not another package's.
            #expect(links.contains(ownLock) && links.contains(cacheLock))
            #expect(!links.contains(otherLock))
            #expect(!links.contains("TemporaryDirectory.old"))
            #expect(!links.contains("plain.lock") && !links.contains("_notes.txt"))
            #expect(
                try FileManager.default.destinationOfSymbolicLink(
                    atPath: folder.url.appendingPathComponent(ownLock).path)
                    == system.appendingPathComponent(ownLock).path)
            #expect(
                try FileManager.default.destinationOfSymbolicLink(
                    atPath: folder.url.appendingPathComponent(scratchLock).path)
                    == workbook.root.appendingPathComponent(".build-learner/workbook-tmp/locks/" + scratchLock).path)

            let outcome = try LimitedRun.run(
                [
                    "sh", "-c",
                    #"mkdir "$TMPDIR/TemporaryDirectory.1" && touch "$TMPDIR/workbook-child-1.stderr" && echo "$TMPDIR""#,
                ],
                in: workbook.root, environment: folder.environment(ProcessInfo.processInfo.environment),
                timeLimit: nil, clockStart: nil, memoryLimitKilobytes: nil)
            #expect(outcome.output == folder.url.path + "\n")
            #expect(
                FileManager.default.fileExists(
                    atPath: folder.url.appendingPathComponent("workbook-child-1.stderr").path))
            folder.remove()
            #expect(!FileManager.default.fileExists(atPath: folder.url.path))
            #expect(workbook.exists("system-tmp/" + ownLock), "removing the links keeps the locks")
        }
    }
}

@Suite("Verdicts are about the files on disk")
struct RunFingerprintTests {
    @Test("A change during a run is noticed, even one that keeps the size; the run is made again")
    func changesDuringARun() throws {
        try withTemporaryWorkbook { workbook in
            let chapters = try workbook.curriculum.chapters
            let before = RunFingerprint.take(of: chapters, root: workbook.root)
            #expect(before.hashes.keys.contains("Chapters/01-First/Exercise.swift"))
            #expect(before.hashes.keys.contains("Tests/Ch01FirstTests/FirstTests.swift"))
            #expect(RunFingerprint.take(of: chapters, root: workbook.root).changes(since: before).isEmpty)
            try workbook.write("Chapters/01-First/Exercise.swift", "func answer() -> Int { 7 }\n")  // same size
            let after = RunFingerprint.take(of: chapters, root: workbook.root)
            #expect(after.changes(since: before) == ["Chapters/01-First/Exercise.swift"])
            #expect(after.restricted(to: chapters[1]) == before.restricted(to: chapters[1]))
            #expect(
                after.snapshot(of: "Chapters/01-First").stamps.keys.sorted() == [
                    "Chapters/01-First/Exercise.swift", "Chapters/01-First/README.md",
                ])

            // The build of a changed module is invalidated: its intermediates go, or its files are touched.
            for name in ["Exercise.swift.o", "Exercise.swiftdeps", "primary.priors", "output-file-map.json"] {
                try workbook.write(".build-learner/debug/Ch01First.build/" + name, "stale")
            }
            RunFingerprint.invalidateBuild(
                of: ["Chapters/01-First/Exercise.swift", "Tests/Ch02SecondTests/SecondTests.swift"], chapters: chapters,
                in: workbook.layout, scratchPath: ".build-learner")
            #expect(!workbook.exists(".build-learner/debug/Ch01First.build/Exercise.swift.o"))
            #expect(!workbook.exists(".build-learner/debug/Ch01First.build/Exercise.swiftdeps"))
            #expect(!workbook.exists(".build-learner/debug/Ch01First.build/primary.priors"))
            #expect(workbook.exists(".build-learner/debug/Ch01First.build/output-file-map.json"), "the plan stays")
            #expect(workbook.exists(".build-learner/debug/junk.o"))
            #expect(
                RunFingerprint.take(of: chapters, root: workbook.root).changes(since: after) == [
                    "Tests/Ch02SecondTests/SecondTests.swift"
                ], "with no intermediates to remove, the file is touched")
        }
    }

    @Test("A run during which the files changed is not used: it is made again, on the files as they are")
    func runAgain() throws {
        try withTemporaryWorkbook { workbook in
            let passing = [
                Stream.test(Stream.first, "The answer is 42"), Stream.event("runStarted"),
                Stream.event("testStarted", Stream.first), Stream.event("testEnded", Stream.first),
                Stream.event("runEnded"),
            ].joined(separator: "\n")
            try workbook.write("stream.jsonl", passing)
            // The first attempt saves the exercise while "testing"; later attempts don't.
            let exercise = workbook.root.appendingPathComponent("Chapters/01-First/Exercise.swift").path
            let marker = workbook.root.appendingPathComponent("saved-once").path
            let script = #"[ -e "\#(marker)" ] || { touch "\#(marker)"; echo '// saved' >> "\#(exercise)"; }"#
            let said = Captured()
            let chapter = try workbook.chapter(1)
            let run = try LearnerRun.limitedRun(
                fakeSwiftTest(stream: workbook.root.appendingPathComponent("stream.jsonl"), then: script),
                chapters: [chapter], in: workbook.layout, environment: ProcessInfo.processInfo.environment,
                limits: RunLimits(), say: said.err)
            #expect(said.takeErrors() == "↻ Exercise.swift changed while the tests ran: building and testing again…")
            #expect(run.changedDuringRun.isEmpty)
            #expect(
                run.fingerprint == RunFingerprint.take(of: [chapter], root: workbook.root), "about the files on disk")
            #expect(
                run.statuses(of: [chapter], curriculum: try workbook.curriculum, tamper: nil)[chapter.folder]?.isDone
                    == true)

            // Files that keep changing: no verdict at all.
            let always = #"echo '// again' >> "\#(exercise)""#
            let restless = try LearnerRun.limitedRun(
                fakeSwiftTest(stream: workbook.root.appendingPathComponent("stream.jsonl"), then: always),
                chapters: [chapter], in: workbook.layout, environment: ProcessInfo.processInfo.environment,
                limits: RunLimits(), say: { _ in })
            #expect(restless.changedDuringRun == ["Chapters/01-First/Exercise.swift"])
            #expect(
                restless.statuses(of: [chapter], curriculum: try workbook.curriculum, tamper: nil)[chapter.folder]
                    == .noResult(reason: "its files kept changing while its tests ran; check again"))
        }
    }
}

@Suite("Small things: process table, verify's options, quoted paths, the mode variable")
struct RunLimitsSmallThingsTests {
    @Test("A process's stat line is read past a command name with spaces and parentheses")
    func statLine() throws {
        let line = "4242 (swift (test) x) S 17 4242 4242 34816 4242 4194560 1 0 0 0 5 2 0 0 20 0 3 0 987654 1 2 3\n"
        let member = try #require(ProcessTree.parseStat(line, pid: 4242))
        #expect(member.parent == 17 && member.group == 4242 && member.start == 987654 && !member.isZombie)
        #expect(ProcessTree.parseStat("1 (x) Z 0 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5 0 0", pid: 1)?.isZombie == true)
        #expect(ProcessTree.isRunning(getpid()))
        let table = [
            pid_t(10): ProcessTree.Member(pid: 10, parent: 1, group: 10, start: 1, isZombie: false),
            11: ProcessTree.Member(pid: 11, parent: 10, group: 11, start: 1, isZombie: false),
            12: ProcessTree.Member(pid: 12, parent: 11, group: 11, start: 1, isZombie: false),
            13: ProcessTree.Member(pid: 13, parent: 1, group: 13, start: 1, isZombie: false),
        ]
        #expect(ProcessTree.members(of: 10, in: table).map(\.pid) == [10, 11, 12])
    }

    @Test("verify takes the options scripts/verify documents, and refuses others in one line")
    func verifyOptions() throws {
        let header = """
            #!/usr/bin/env bash
            # The check. It runs swift test --traits Solutions (not an option of this script).
            #   --no-variant-check   skips the variant check
            #
            # Usage: scripts/verify [--no-fix-check] [--no-cli-test] [--no-snippet-check]
            set -euo pipefail
            # --not-in-the-header
            """
        #expect(
            VerifyOptions.documented(inScript: header) == [
                "--no-variant-check", "--no-fix-check", "--no-cli-test", "--no-snippet-check",
            ])
        try withTemporaryWorkbook { workbook in
            try workbook.write("scripts/verify", header + "\nexit 0\n")
            let printed = Captured()
            let tool = Workbook(workingDirectory: workbook.root, out: printed.out, err: printed.err)
            #expect(tool.run(["verify", "--no-cli-test", "--no-variant-check"]) == 0)
            #expect(tool.run(["verify", "--quick"]) == 2)
            #expect(
                printed.takeErrors()
                    == "workbook: verify: unknown option '--quick'; choose from: --no-variant-check, --no-fix-check, --no-cli-test, --no-snippet-check\n"
            )
        }
    }

    @Test("student-edition quotes the paths it prints")
    func quotedPaths() throws {
        #expect("/tmp/my class".shellQuoted == "'/tmp/my class'")
        #expect("it's".shellQuoted == #"'it'\''s'"#)
        try withTemporaryWorkbook { workbook in
            let printed = Captured()
            let tool = Workbook(workingDirectory: workbook.root, out: printed.out, err: printed.err)
            let name = "hand out \(UUID().uuidString.prefix(8))"
            #expect(tool.run(["student-edition", "../" + name]) == 0)
            let output = printed.takeOutput()
            let destination = workbook.root.deletingLastPathComponent().appendingPathComponent(name)
            defer { try? FileManager.default.removeItem(at: destination) }
            #expect(output.contains("Wrote a student edition to '\(destination.standardizedFileURL.path)': "))
            #expect(output.contains("Try it: cd '../\(name)' && swift run workbook"))
        }
    }

    @Test("An unknown WORKBOOK_MODE is one clear line and exit status 2, not a crash with a backtrace")
    func unknownMode() async {
        let result = await offThePool {
            await #expect(processExitsWith: .exitCode(2), observing: [\.standardErrorContent]) {
                setenv("WORKBOOK_MODE", "bogus", 1)
                _ = WorkbookMode.current
            }
        }
        if let result {
            let text = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(text == "error: WORKBOOK_MODE=bogus is not a mode; use 'learner' or 'exercise-check'\n")
        }
    }
}

extension TemporaryWorkbook {
    /// The temporary workbook's chapters, without a folder on disk.
    static func chapters() throws -> [Curriculum.Chapter] { try curriculumValue().chapters }

    static func curriculumValue() throws -> Curriculum {
        try JSONDecoder().decode(Curriculum.self, from: Data(manifest.utf8))
    }
}
