import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch20TestingConcurrentCodeSolution
#else
    import Ch20TestingConcurrentCode
#endif

private let reading = ChapterReading("20-TestingConcurrentCode")

/// What can go wrong in this chapter, in the learner's words.
enum Bugs {
    static let progressFailsCorrect = reading.lesson(
        "checkProgressIsReported fails against a correct uploader",
        "a check must pass against working code, every time: await the upload before asserting (not a sleep or a task you never await), with a clock injected so that its waits end at once, and expect exactly what the uploader promises",
        section: "Sleeping is guessing")
    static let progressMissesFlaw = reading.lesson(
        "checkProgressIsReported lets a broken uploader through",
        "a confirmation checks the count only when its body returns, and only the count you give it: expect exactly one call per chunk, and await the upload inside the body",
        section: "Confirm the events")
    static let retryFailsCorrect = reading.lesson(
        "checkFailedChunkIsRetried fails against a correct uploader",
        "a check that asserts before the upload has done its work, or waits for it on the real clock, fails against working code: await the upload first, with a clock injected through UploadDependencies so that its waits end at once",
        section: "Inject the clock")
    static let retryMissesFlaw = reading.lesson(
        "checkFailedChunkIsRetried lets a broken uploader through",
        "a retry is right only if the uploader waited before it: the injected clock remembers every wait, so the check can see the delay without spending it",
        section: "Inject the clock")
    static let cancelFailsCorrect = reading.lesson(
        "checkCancelStopsTheUpload fails against a correct uploader",
        "a correct uploader that is cancelled while a chunk is in flight accepts no further chunk and throws CancellationError; the check must cancel while the work is held, then look at what the upload did",
        section: "Gates: cancel while the work is in flight")
    static let cancelMissesFlaw = reading.lesson(
        "checkCancelStopsTheUpload lets a broken uploader through",
        "`task.isCancelled` is true as soon as `cancel()` returns, whatever the uploader does: hold a request at the server's gate, cancel, then check that the upload threw CancellationError and that the server got no further chunk",
        section: "Gates: cancel while the work is in flight")
    static let trapFailsCorrect = reading.lesson(
        "checkSecondUploadTraps fails against a correct uploader",
        "the correct uploader traps when a second upload starts while the first is in flight: the exit test's child must start the second upload while the first one is held, and expect the process to fail",
        section: "Traps belong in exit tests")
    static let trapMissesFlaw = reading.lesson(
        "checkSecondUploadTraps lets a broken uploader through",
        "a trap ends the process it happens in, so it can only be checked in an exit test: #expect(processExitsWith: .failure) { … } runs the scenario in a child process",
        section: "Traps belong in exit tests")
    static let sleeps = reading.lesson(
        "a check sleeps instead of waiting for the work",
        "a sleep on the real clock is a guess about how long the work takes: too short and the check fails on a busy machine, long enough and every run pays for it. Await the work, or an event it sends",
        section: "Sleeping is guessing")
    static let yields = reading.lesson(
        "a check yields a fixed number of times instead of waiting for the work",
        "Task.yield() lets other tasks run, but promises nothing about which ones or how far they get: await the work, or an event it sends",
        section: "Sleeping is guessing")
    static let unawaitedTask = reading.lesson(
        "a check starts a task it never awaits",
        "a check ends when its function returns: expectations in a task it never awaits run after that, or never, and count for nothing. Await the work itself, or keep the task and await its value or result",
        section: "Await what you start")
    static let hidesIssues = reading.lesson(
        "a check hides its own failures in withKnownIssue",
        "withKnownIssue marks the failures inside it as expected, so a check wrapped in it can't fail on the bug it should catch (and with isIntermittent: true it can't fail at all): use it only for a bug you know about, around the one expectation that shows it",
        section: "Await what you start")
}

/// One of the learner's checks, and what the workbook holds it to.
struct LearnerCheck: Sendable {
    let name: String
    let run: @Sendable (UploaderBuild) async throws -> Void
    /// The broken uploaders the check must catch.
    let flaws: [UploaderFlaw]
    let failsCorrect: Lesson
    let missesFlaw: Lesson
    /// How many times in a row it must pass against the correct uploader.
    let correctRuns: Int
    /// How long one run may take before it counts as hung (paid only by a check that hangs).
    let limit: Duration

    static let progress = LearnerCheck(
        name: "checkProgressIsReported", run: checkProgressIsReported,
        flaws: [.skipsLastProgress, .repeatsProgress],
        failsCorrect: Bugs.progressFailsCorrect, missesFlaw: Bugs.progressMissesFlaw, correctRuns: 20, limit: hangLimit)
    static let retry = LearnerCheck(
        name: "checkFailedChunkIsRetried", run: checkFailedChunkIsRetried,
        flaws: [.neverRetries, .retriesAtOnce],
        failsCorrect: Bugs.retryFailsCorrect, missesFlaw: Bugs.retryMissesFlaw, correctRuns: 20, limit: hangLimit)
    static let cancel = LearnerCheck(
        name: "checkCancelStopsTheUpload", run: checkCancelStopsTheUpload,
        flaws: [.ignoresCancellation, .swallowsCancellation],
        failsCorrect: Bugs.cancelFailsCorrect, missesFlaw: Bugs.cancelMissesFlaw, correctRuns: 20, limit: hangLimit)
    // Each run starts a child process: fewer runs, and time to start one on a busy machine.
    static let trap = LearnerCheck(
        name: "checkSecondUploadTraps", run: checkSecondUploadTraps,
        flaws: [.allowsOverlappingUploads],
        failsCorrect: Bugs.trapFailsCorrect, missesFlaw: Bugs.trapMissesFlaw, correctRuns: 5, limit: .seconds(60))
}

/// What one run of a check recorded.
struct CheckRun {
    /// The issues the check recorded (its failed expectations, errors it threw), described.
    var issues: [String]
    /// Whether it was still running when the limit passed.
    var hung: Bool
}

extension LearnerCheck {
    /// Runs the check once against `build`. The issues it records are caught as known
    /// issues, so that they don't fail the calling test; this returns them instead. The limit
    /// starts again while the uploader takes steps: an uploader that yields 40 times per chunk
    /// is slow on a busy machine, not stuck.
    func run(against build: UploaderBuild) async -> CheckRun {
        let recorded = Locked<[String]>([])
        let check = run
        let steps = ObservedCount()
        let outcome = await withinHangLimit(limit, progress: { steps.value }) {
            try await ChunkedUploader.$steps.withValue(steps) {
                try await withKnownIssue("what \(name) records against \(build)", isIntermittent: true) {
                    try await check(build)
                } matching: { issue in
                    recorded.withLock { $0.append(describe(issue)) }
                    return true
                }
            }
        }
        switch outcome {
        case .stillSuspended:
            return CheckRun(issues: recorded.withLock { $0 }, hung: true)
        case .finished(.failure(let error)):
            return CheckRun(issues: recorded.withLock { $0 } + ["it threw \(error)"], hung: false)
        case .finished(.success):
            return CheckRun(issues: recorded.withLock { $0 }, hung: false)
        }
    }

    /// The places in the check's source that guess, as a line to add to a failure (empty
    /// when there are none).
    var inYourCode: String {
        let findings = CheckSource.findings(in: name)
        return findings.isEmpty ? "" : "\nIn your code: " + findings.map(\.description).joined(separator: "; ") + "."
    }

    /// Holds the check to the chapter's standard: it passes against the correct uploader
    /// `correctRuns` times in a row, and records at least one issue against each flaw.
    func verify() async {
        for round in 1...correctRuns {
            let outcome = await run(against: .correct)
            guard outcome.hung || !outcome.issues.isEmpty else { continue }
            let detail =
                outcome.hung
                ? "Against the correct uploader, \(name) was still running after \(limit): it waits for something that never happens."
                : "In run \(round) of \(correctRuns) against the correct uploader, \(name) recorded:\n"
                    + outcome.issues.map { "  - " + $0 }.joined(separator: "\n")
            failsCorrect.record(detail + inYourCode)
            return
        }
        var missed: [UploaderFlaw] = []
        for flaw in flaws {
            let outcome = await run(against: .flawed(flaw))
            if !outcome.hung && outcome.issues.isEmpty { missed.append(flaw) }
        }
        if !missed.isEmpty {
            missesFlaw.record(
                "\(name) passed against " + missed.map { "an uploader that \($0)" }.joined(separator: ", and against ")
                    + ".")
        }
    }
}

/// An issue as one line: what failed, its comments, and where.
private func describe(_ issue: Issue) -> String {
    var text = "\(issue.kind)"
    let comments = issue.comments.map(\.rawValue).filter { !text.contains($0) }
    if !comments.isEmpty { text += " (" + comments.joined(separator: "; ") + ")" }
    if let location = issue.sourceLocation { text += " at \(location.fileName):\(location.line)" }
    return text
}
