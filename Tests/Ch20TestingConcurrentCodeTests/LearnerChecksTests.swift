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
