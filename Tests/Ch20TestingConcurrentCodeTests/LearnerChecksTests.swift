import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch20TestingConcurrentCodeSolution
#else
    import Ch20TestingConcurrentCode
#endif

@Suite("Chapter 20: your checks, run against a correct uploader and against broken ones")
struct LearnerChecksTests {
    @Test(
        "checkProgressIsReported passes against a correct uploader every time, and catches each broken one",
        .exposesBug(Bugs.progressFailsCorrect))
    func progressCheck() async {
        await LearnerCheck.progress.verify()
    }

    @Test(
        "checkFailedChunkIsRetried passes against a correct uploader every time, and catches each broken one",
        .exposesBug(Bugs.retryFailsCorrect))
    func retryCheck() async {
        await LearnerCheck.retry.verify()
    }

    @Test(
        "checkCancelStopsTheUpload passes against a correct uploader every time, and catches each broken one",
        .exposesBug(Bugs.cancelMissesFlaw))
    func cancellationCheck() async {
        await LearnerCheck.cancel.verify()
    }

    @Test(
        "checkSecondUploadTraps passes against a correct uploader, and catches one that lets uploads overlap",
        .exposesBug(Bugs.trapMissesFlaw))
    func trapCheck() async {
        await LearnerCheck.trap.verify()
    }

    @Test(
        "No check sleeps, yields to guess, leaves a task unawaited, or hides its failures",
        .exposesBug(Bugs.sleeps, Bugs.unawaitedTask))
    func checksWaitForTheWork() {
        #expect(
            CheckSource.swiftFiles().count >= 4,
            "The checks' source files were not found in \(CheckSource.folder.path).")
        let findings = CheckSource.findings()
        let lessons: [(CheckSource.Finding.Kind, Lesson)] = [
            (.sleep, Bugs.sleeps), (.yield, Bugs.yields), (.unawaitedTask, Bugs.unawaitedTask),
            (.knownIssue, Bugs.hidesIssues),
        ]
        for (kind, lesson) in lessons {
            let found = findings.filter { $0.kind == kind }
            if !found.isEmpty { lesson.record(found.map { "  - \($0)" }.joined(separator: "\n")) }
        }
    }
}

@Suite("Chapter 20: how the workbook reads your checks")
struct CheckSourceTests {
    @Test("The scan tells awaited tasks from forgotten ones, and ignores comments and strings")
    func scan() {
        let sleep = "Task" + ".sleep"  // spelled in two halves: no test here sleeps
        let source = """
            func waits() async throws {
                let upload = Task { 1 }
                let other =
                    Task(priority: .high) { 2 }
                _ = await Task { 3 }.value
                _ = await upload.value
                _ = await other.result
                // \(sleep)(for: .seconds(1)) in a comment
                print("Task.yield() in a string")
                try await clock.sleep(for: .seconds(1))
            }
            func guesses() async throws {
                Task { 4 }
                let kept = Task { 5 }
                kept.cancel()
                try await \(sleep)(for: .seconds(1))
                await Task.yield()
                withKnownIssue { }
            }
            """
        let findings = CheckSource.scan(source, file: "Sample.swift")
        #expect(findings.allSatisfy { $0.function == "guesses" }, "\(findings)")
        #expect(findings.map(\.line) == [16, 17, 18, 13, 14], "\(findings)")
    }
}
