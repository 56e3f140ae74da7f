import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch20TestingConcurrentCodeSolution
#else
    import Ch20TestingConcurrentCode
#endif

// Chapter 20's contract, explored. What the learner writes here are checks, so the space to
// walk is the space of uploaders: each check runs once against every shape of a correct
// uploader (how many hops it takes per chunk, which task its progress reports come from, and
// whether they come at once or as late as the contract allows), and against every way of
// breaking the one promise it checks, each built in two shapes. A check must record nothing
// against the first, and at least one issue against each of the second. Each failure names
// the uploader and the line that replays the run.

/// Every shape of a correct uploader the checks must pass against: 3 × 3 × 2 = 18.
let correctShapes: [UploaderShape] = [0, 1, 40].flatMap { hops in
    UploaderShape.ReportContext.allCases.flatMap { context in
        [false, true].map { UploaderShape(hops: hops, reportsFrom: context, reportsLate: $0) }
    }
}

/// The shapes each broken uploader is built in. Their reports come from tasks that keep the
/// test's task-local context: an expectation that fails in a detached task belongs to no
/// test, so it could not be counted as the check's.
let flawShapes: [UploaderShape] = [.plain, UploaderShape(hops: 1, reportsFrom: .otherTask)]

/// What the exploration is called in its reports.
private let instrument = "every shape of uploader and every flaw"

extension LearnerCheck {
    /// Every way of breaking the promise this check is about: the contract the reading states
    /// under "Your task". The flaws that leave a check hanging if it never releases the
    /// server's gate come last, so that a run that hangs (which ends the exploration) leaves
    /// no other flaw untried.
    var contractFlaws: [UploaderFlaw] {
        switch name {
        case LearnerCheck.progress.name:
            [.skipsLastProgress, .repeatsProgress, .reportsChunksSentBefore, .reportsBeforeAccepting]
        case LearnerCheck.retry.name: [.neverRetries, .retriesAtOnce, .waitsTheWrongDelay, .restartsAfterFailure]
        case LearnerCheck.cancel.name:
            [.swallowsCancellation, .throwsAnotherErrorOnCancel, .sendsTheChunkInFlight, .ignoresCancellation]
        default: flaws
        }
    }

    /// Runs the check once against each correct shape in `correct`, then against each flaw of
    /// ``contractFlaws`` in each of `flawed`. It stops at the first correct shape the check
    /// fails, at the first flaw's shape it misses (one miss per flaw is enough), and after a
    /// run that hung (a hang against a flaw counts as catching it, but every further hang
    /// would wait out the limit again).
    func explore(correct: [UploaderShape], flawed: [UploaderShape]) async -> ExplorationReport {
        var findings: [ExplorationFinding] = []
        var runs = 0
        func report(stoppedAfterHang: Bool = false) -> ExplorationReport {
            ExplorationReport(
                instrument: instrument, scenario: name, runs: runs, findings: findings,
                stoppedAfterHang: stoppedAfterHang)
        }
        func reproducer(_ build: UploaderBuild) -> String { "Reproducer: try await \(name)(\(build.code))" }

        for shape in correct {
            let build = UploaderBuild.shaped(shape)
            let outcome = await run(against: build)
            runs += 1
            guard outcome.hung || !outcome.issues.isEmpty else { continue }
            let observed =
                outcome.hung
                ? "\(name) was still running against \(build) after \(limit): it waits for something that never happens."
                : "\(name) recorded against \(build):\n" + outcome.issues.map { "  - " + $0 }.joined(separator: "\n")
            findings.append(
                ExplorationFinding(Violation(failsCorrect, observed + inYourCode), reproducer: reproducer(build)))
            return report(stoppedAfterHang: outcome.hung)
        }
        for flaw in contractFlaws {
            for shape in flawed {
                let build = UploaderBuild.shaped(shape, flaw: flaw)
                let outcome = await run(against: build)
                runs += 1
                if outcome.hung { return report(stoppedAfterHang: !findings.isEmpty) }
                guard outcome.issues.isEmpty else { continue }
                findings.append(
                    ExplorationFinding(
                        Violation(missesFlaw, "\(name) recorded no issue against \(build)."),
                        reproducer: reproducer(build)))
                break
            }
        }
        return report()
    }
}

@Suite("Chapter 20: your checks against every shape of a correct uploader and every way of breaking one")
struct CheckContractTests {
    @Test(
        "checkProgressIsReported passes against every shape of a correct uploader, and catches every broken report",
        .exposesBug(Bugs.progressFailsCorrect))
    func progressContract() async {
        await LearnerCheck.progress.explore(correct: correctShapes, flawed: flawShapes).record()
    }

    @Test(
        "checkFailedChunkIsRetried passes against every shape of a correct uploader, and catches every broken retry",
        .exposesBug(Bugs.retryFailsCorrect))
    func retryContract() async {
        await LearnerCheck.retry.explore(correct: correctShapes, flawed: flawShapes).record()
    }

    @Test(
        "checkCancelStopsTheUpload passes against every shape of a correct uploader, and catches every broken cancel",
        .exposesBug(Bugs.cancelMissesFlaw))
    func cancelContract() async {
        await LearnerCheck.cancel.explore(correct: correctShapes, flawed: flawShapes).record()
    }

    // Each run starts a child process: two shapes that differ from the plain one in every way
    // a correct uploader may, and the one flaw in a shape of its own.
    @Test(
        "checkSecondUploadTraps passes against other shapes of a correct uploader, and catches overlapping uploads in them",
        .exposesBug(Bugs.trapMissesFlaw))
    func trapContract() async {
        await LearnerCheck.trap.explore(
            correct: [
                UploaderShape(hops: 1, reportsFrom: .otherTask, reportsLate: true),
                UploaderShape(hops: 40, reportsFrom: .detachedTask),
            ],
            flawed: [UploaderShape(hops: 1, reportsFrom: .otherTask)]
        ).record()
    }
}
