import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch19ClocksAndTimeoutsSolution
#else
    import Ch19ClocksAndTimeouts
#endif

// Chapter 19's contract, explored on its own: a search whose first request is answered "busy"
// and whose second is answered with results (or never, until the time limit passes), with the
// caller cancelled before the call and right after every step of the test's script. Each
// failure names the lesson and adds a reproducer: the steps, the cancel point, the outcome.

private let function = "SearchClient.search(_:) in SearchClient.swift"

/// One step of the test's script: what the test does, and what it waits (bounded) to see
/// before it reports the step. A step is reported only once its effect is there, so a cancel
/// right after it lands at exactly that point.
private struct ScriptStep: Sendable {
    let label: String
    /// The requests the test has seen at the server once the step is reported.
    let requests: Int
    /// The lesson to record if the effect never comes.
    let lesson: Lesson
    let act: @Sendable (Scene) -> Void
    let effect: @Sendable (Scene) async -> Void
}

/// How the script ends: the server answers the second request, or the clock reaches 2 s.
private enum Ending: String, Sendable {
    case answered = "the second request is answered with results"
    case timedOut = "the second request gets no answer until the time limit"
}

private func script(_ ending: Ending) -> [ScriptStep] {
    let start: [ScriptStep] = [
        ScriptStep(
            label: "request 1 waits at the server, and the time limit sleeps on the clock", requests: 1,
            lesson: Bugs.realClock, act: { _ in },
            effect: { scene in
                await scene.server.requests.reach(1)
                await scene.clock.waitForSleepers(1)
            }),
        ScriptStep(
            label: "the server answers request 1: busy", requests: 1, lesson: Bugs.retriesWrong,
            act: { $0.server.reply(.busy) }, effect: { _ in }),
        ScriptStep(
            label: "the back-off sleeps on the clock until 0.5 s", requests: 1, lesson: Bugs.realClock,
            act: { _ in }, effect: { await $0.clock.waitForSleeper(until: at(.milliseconds(500))) }),
        ScriptStep(
            label: "the clock moves to 0.5 s, and request 2 reaches the server", requests: 2, lesson: Bugs.retriesWrong,
            act: { $0.clock.advance(to: at(.milliseconds(500))) }, effect: { await $0.server.requests.reach(2) }),
    ]
    switch ending {
    case .answered:
        return start + [
            ScriptStep(
                label: "the server answers request 2: [\"swift.org\"]", requests: 2, lesson: Bugs.retriesWrong,
                act: { $0.server.reply(.results(["swift.org"])) }, effect: { _ in })
        ]
    case .timedOut:
        return start + [
            ScriptStep(
                label: "the clock moves to 2 s: the time limit passes", requests: 2, lesson: Bugs.timeoutNotThrown,
                act: { $0.clock.advance(to: at(.seconds(2))) }, effect: { _ in })
        ]
    }
}

/// A scene, and the test's script played against it step by step, in a task of its own.
private final class ScriptedSearch: Sendable {
    let scene = Scene()
    let steps: [ScriptStep]
    /// The script's task; it returns the step whose effect never came, if one didn't.
    let driver: Task<ScriptStep?, Never>?

    init(_ ending: Ending, probe: StepProbe) {
        let scene = scene
        let steps = script(ending)
        self.steps = steps
        // Cancelled before the call, the search has nothing to wait for: no script.
        driver =
            probe.cancelMade
            ? nil
            : Task {
                for step in steps {
                    step.act(scene)
                    guard case .finished = await withinHangLimit(hangLimit, { await step.effect(scene) }) else {
                        return step
                    }
                    probe.step(step.label)
                    // After the cancel, the test does nothing more: whatever happens is the search's doing.
                    if probe.cancelMade { return nil }
                }
                return nil
            }
    }
}

/// The promises every run keeps, whatever the cancel point: the call ended, nothing it started
/// is still waiting at the server or asleep on the clock, and no request went out after the cancel.
private func leftovers(
    _ run: CancelPointRun<[String]>, _ search: ScriptedSearch, _ ending: Ending
) async -> [Violation] {
    if let stuck = await search.driver?.value {
        // Ended with TimeoutError before the script reached 2 s: an answer became a timeout.
        let early: Bool
        if case .failure(let error)? = run.outcome { early = error is TimeoutError } else { early = false }
        return [
            Violation(
                early ? Bugs.errorBecomesTimeout : stuck.lesson,
                "\(function): the test waited for \"\(stuck.label)\", and it never happened; then \(describeOutcome(run.outcome))."
            )
        ]
    }
    let server = search.scene.server
    let clock = search.scene.clock
    var violations: [Violation] = []
    if run.outcome == nil {
        let lesson: Lesson
        switch (run.cancelAfter, ending) {
        case (_?, _): lesson = Bugs.cancelNotPassedOn
        case (nil, .answered): lesson = Bugs.loserNotCancelled
        // Past the limit, a timer still asleep on the clock started counting later than the call.
        case (nil, .timedOut): lesson = clock.sleeperCount > 0 ? Bugs.limitRestarts : Bugs.timedOutNotStopped
        }
        violations.append(
            Violation(
                lesson,
                "\(function) was still running (\(server.waiting.value) request(s) waiting at the server,"
                    + " asleep on the clock: \(describeSleepers(clock)))."))
        return violations
    }
    if server.waiting.value > 0 {
        violations.append(
            Violation(
                Bugs.cancelNotPassedOn,
                "\(function) had ended, and \(server.waiting.value) request(s) were still waiting at the server."))
    }
    if clock.sleeperCount > 0 {
        violations.append(
            Violation(
                Bugs.loserNotCancelled,
                "\(function) had ended, and something it started was still asleep on the clock until \(describeSleepers(clock))."
            ))
    }
    // A task cancelled before the call may still make its first request (the server refuses it).
    if let point = run.cancelAfter {
        let seen = point == 0 ? 0 : search.steps[point - 1].requests
        if server.requests.value > max(seen, 1) {
            violations.append(
                Violation(
                    Bugs.retriesIgnoreCancel,
                    "\(function): \(seen) request(s) before the cancel, \(server.requests.value) in all: it asked the server again after the cancel."
                ))
        }
    }
    return violations
}

/// The outcome the contract allows at this run's cancel point, or the promise it broke.
private func outcomeKept(_ run: CancelPointRun<[String]>, _ ending: Ending, lastStep: Int) -> [Violation] {
    guard let result = run.outcome else { return [] }
    let seen = "\(function) \(describe(result))"
    let error: (any Error)? = if case .failure(let error) = result { error } else { nil }
    let cancelled = error is CancellationError
    let timedOut = error as? TimeoutError == TimeoutError(limit: .seconds(2))
    switch (run.cancelAfter, ending) {
    case (nil, .answered):
        if result.value == ["swift.org"] { return [] }
        return [Violation(timedOut ? Bugs.errorBecomesTimeout : Bugs.retriesWrong, seen)]
    case (nil, .timedOut):
        return timedOut ? [] : [Violation(Bugs.timeoutNotThrown, seen)]
    // Cancelled right after its last step, the search may end either way: with that step's outcome or the cancel.
    case (lastStep?, .answered) where result.value == ["swift.org"] || cancelled:
        return []
    case (lastStep?, .timedOut) where timedOut || cancelled:
        return []
    case (_?, _):
        // Before its last step, the cancel ends the search with an error; which one is open, but not a timeout.
        if let error, !(error is TimeoutError) { return [] }
        return [Violation(error is TimeoutError ? Bugs.cancelBecomesTimeout : Bugs.cancelNotPassedOn, seen)]
    }
}

/// Every cancel point of the search that ends as `ending`.
private func exploreSearch(_ ending: Ending) async -> ExplorationReport {
    let lastStep = script(ending).count
    return await exploreCancelPoints(
        "SearchClient.search(\"swift\"), where \(ending.rawValue)",
        world: { ScriptedSearch(ending, probe: $0) },
        operation: { search in
            try await SearchClient(server: search.scene.server, clock: search.scene.clock).search("swift")
        }
    ) { run, search in
        let violations = await leftovers(run, search, ending)
        return violations.isEmpty ? outcomeKept(run, ending, lastStep: lastStep) : violations
    }
}

// Every answer the server can give, at every request of a search, against the contract's
// model; then a second search on the same client, which must start afresh.

/// The answers the server gives a search, one per request, up to the one that decides it.
private let answerSequences: [[SearchServer.Reply]] = [
    [.results(["swift.org"])], [.badQuery],
    [.busy, .results(["swift.org"])], [.busy, .badQuery],
    [.busy, .busy, .results(["swift.org"])], [.busy, .busy, .badQuery], [.busy, .busy, .busy],
]

/// An answer in words: `busy`, `badQuery`, `["swift.org"]`.
private func label(_ answer: SearchServer.Reply) -> String {
    switch answer {
    case .results(let results): "\(results)"
    case .busy: "busy"
    case .badQuery: "badQuery"
    }
}

/// What the contract says a search answered `answers` ends with.
private func expectedOutcome(_ answers: [SearchServer.Reply]) -> String {
    switch answers.last {
    case .results(let results)?: "returned \(results)"
    case .badQuery?: "threw \(SearchServerError.badQuery)"
    default: "threw \(SearchServerError.busy)"
    }
}

/// Plays one search answered `answers`, moving the clock through each back-off, and then a
/// second search answered with results. Returns the steps and the first promise broken.
private func playAnswers(_ answers: [SearchServer.Reply]) async -> (steps: [String], violation: Violation?) {
    let scene = Scene()
    let client = SearchClient(server: scene.server, clock: scene.clock)
    var steps: [String] = []
    let first = Call { try await client.search("swift") }
    defer { first.task.cancel() }
    var backoff = Duration.milliseconds(500)
    var now = Duration.zero
    for (index, answer) in answers.enumerated() {
        if index > 0 {
            let deadline = at(now + backoff)
            let clock = scene.clock
            if case .stillSuspended = await withinHangLimit(hangLimit, { await clock.waitForSleeper(until: deadline) })
            {
                let ended = await first.outcomeIfEnded()
                let lesson = ended.map { _ in Bugs.retriesWrong } ?? Bugs.realClock
                return (
                    steps,
                    Violation(
                        lesson,
                        "\(function): after a busy answer, the test waited for a back-off asleep on the clock until"
                            + " \(deadline.offset); asleep on the clock: \(describeSleepers(clock))"
                            + (ended.map { ", and the search \(describe($0))" } ?? "") + ".")
                )
            }
            now += backoff
            backoff *= 2
            scene.clock.advance(to: at(now))
            steps.append("the clock moves to \(now)")
        }
        let requests = scene.server.requests
        if case .stillSuspended = await withinHangLimit(hangLimit, { await requests.reach(index + 1) }) {
            let ended = await first.outcomeIfEnded()
            let timedOut: Bool
            if case .failure(let error)? = ended { timedOut = error is TimeoutError } else { timedOut = false }
            return (
                steps,
                Violation(
                    timedOut ? Bugs.errorBecomesTimeout : Bugs.retriesWrong,
                    "\(function) made \(requests.value) request(s); the test waited for \(index + 1)"
                        + (ended.map { ", and the search \(describe($0))" } ?? "") + ".")
            )
        }
        scene.server.reply(answer)
        steps.append("the server answers request \(index + 1): \(label(answer))")
    }
    guard case .finished(let result) = await first.outcome() else {
        // Every request answered, and nothing asleep but the time limit (2 s): the group waits for its timer.
        let deadlines = scene.clock.deadlines
        let timerLeft =
            scene.server.waiting.value == 0 && !deadlines.isEmpty && deadlines.allSatisfy { $0 == at(.seconds(2)) }
        return (
            steps,
            Violation(
                timerLeft ? Bugs.loserNotCancelled : Bugs.retriesWrong,
                "\(function) was still running (asleep on the clock: \(describeSleepers(scene.clock)))"
                    + "; expected: it \(expectedOutcome(answers)).")
        )
    }
    let timedOut: Bool
    if case .failure(let error) = result { timedOut = error is TimeoutError } else { timedOut = false }
    if describe(result) != expectedOutcome(answers) || scene.server.requests.value != answers.count {
        return (
            steps,
            Violation(
                timedOut ? Bugs.errorBecomesTimeout : Bugs.retriesWrong,
                "\(function) \(describe(result)) after \(scene.server.requests.value) request(s);"
                    + " expected: it \(expectedOutcome(answers)) after \(answers.count).")
        )
    }
    if scene.clock.sleeperCount > 0 || scene.server.waiting.value > 0 {
        return (
            steps,
            Violation(
                Bugs.loserNotCancelled,
                "\(function) had ended, and left \(scene.server.waiting.value) request(s) waiting at the server,"
                    + " asleep on the clock: \(describeSleepers(scene.clock)).")
        )
    }
    // The same client again: a search of its own, answered at once.
    scene.server.reply(.results(["swift.org"]))
    steps.append("a second search on the same client; the server answers it: [\"swift.org\"]")
    let second = Call { try await client.search("swift") }
    defer { second.task.cancel() }
    switch await second.outcome() {
    case .finished(.success(["swift.org"])):
        return (steps, nil)
    case .finished(let again):
        return (steps, Violation(Bugs.retriesWrong, "the second search on the same client \(describe(again))."))
    case .stillSuspended:
        return (steps, Violation(Bugs.loserNotCancelled, "the second search on the same client was still running."))
    }
}

/// Every answer at every request: one run per sequence in ``answerSequences``.
private func exploreAnswers() async -> ExplorationReport {
    let scenario = "SearchClient.search(\"swift\") on one client, twice"
    for (index, answers) in answerSequences.enumerated() {
        let (steps, violation) = await playAnswers(answers)
        guard let violation else { continue }
        // The first broken promise is enough: a run that breaks one often waits out the hang limit.
        return ExplorationReport(
            instrument: "every answer at every request", scenario: scenario, runs: index + 1,
            findings: [
                ExplorationFinding(
                    violation,
                    reproducer: "Reproducer: the server's answers, in order: "
                        + "\(answers.map(label).joined(separator: ", ")).\n  Steps:\n"
                        + steps.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n"))
            ])
    }
    return ExplorationReport(
        instrument: "every answer at every request", scenario: scenario, runs: answerSequences.count, findings: [])
}

@Suite("Chapter 19: the search's contract at every cancel point and every answer")
struct ClocksContractTests {
    @Test(
        "A search answered after one retry, cancelled before the call or after any step, ends at once and leaves nothing behind",
        .exposesBug(Bugs.errorBecomesTimeout))
    func answeredSearchAtEveryCancelPoint() async {
        await exploreSearch(.answered).record()
    }

    @Test(
        "A search that runs out of time after one retry, cancelled before the call or after any step, ends at once and leaves nothing behind",
        .exposesBug(Bugs.errorBecomesTimeout))
    func timedOutSearchAtEveryCancelPoint() async {
        await exploreSearch(.timedOut).record()
    }

    @Test(
        "Whatever the server answers to each request, the search ends as promised, and the next search starts afresh",
        .exposesBug(Bugs.loserNotCancelled, Bugs.errorBecomesTimeout))
    func everyAnswerAtEveryRequest() async {
        await exploreAnswers().record()
    }
}
