import Foundation
import SimulatedWorld
import Testing

@testable import WorkbookTesting

private let reading = ChapterReading("00-Instruments")
private let sampleLesson = reading.lesson(
    "the sample bug", "used to check the instruments", section: "Nowhere")

/// In a child whose standard error is captured: a gate that opens 200 ms (ten of a bounded
/// wait's ticks) after the runtime's first leaked-continuation report can be read, time
/// enough for a wait that wrongly ends on that report to end before the gate opens.
private func gateOpeningAfterALeakReport() -> Gate {
    let gate = Gate(closed: true)
    Task {
        let reported = await sleepCountingRunnableTime(
            for: .seconds(30), endEarly: { ContinuationLeaks.reported() > 0 })
        guard reported else { return }
        await sleepCountingRunnableTime(for: .milliseconds(200))
        gate.open()
    }
    return gate
}

@Suite("Instruments: bounded waits")
struct BoundedWaitTests {
    @Test("A finished operation returns its result without waiting for the limit")
    func finishedOperation() async {
        // A limit this long would time the test out if the wait were paid on success.
        let outcome = await withinHangLimit(.seconds(3600)) { 42 }
        guard case .finished(.success(42)) = outcome else {
            Issue.record("expected .finished(42), got \(outcome)")
            return
        }
    }

    @Test("A thrown error is reported as finished with that error")
    func thrownError() async {
        let outcome = await withinHangLimit { () async throws -> Int in throw CancellationError() }
        guard case .finished(.failure(let error)) = outcome, error is CancellationError else {
            Issue.record("expected the CancellationError, got \(outcome)")
            return
        }
    }

    @Test("An operation that never resumes is reported as still suspended, and the lesson is recorded")
    func hungOperation() async {
        let never = ObservedCount()
        let outcome = await withinHangLimit(.milliseconds(50)) { await never.reach(1) }
        guard case .stillSuspended = outcome else {
            Issue.record("expected .stillSuspended, got \(outcome)")
            return
        }
        await withKnownIssue {
            await awaitResult(of: { await never.reach(1) }, within: .milliseconds(50), orRecord: sampleLesson)
        } matching: { issue in
            sampleLesson.matches(issue) && issue.comments.contains { $0.rawValue.contains("still suspended") }
        }
        never.increment()  // release the abandoned waiters
    }

    @Test("A limit counted at a low priority is counted by a task of that priority, and still ends the wait")
    func timerAtTheAwaitedPriority() async {
        // The progress count is read by the task that counts the limit, between its ticks.
        let seen = Locked<Set<UInt8>>([])
        let never = ObservedCount()
        let (outcome, _) = await boundedWait(
            .milliseconds(50),
            progress: {
                seen.withLock { _ = $0.insert(Task.currentPriority.rawValue) }
                return 0
            },
            timerPriority: .background
        ) { await never.reach(1) }
        guard case .stillSuspended = outcome else {
            Issue.record("expected .stillSuspended, got \(outcome)")
            return
        }
        let priorities = seen.withLock { $0 }
        #expect(
            priorities == [TaskPriority.background.rawValue],
            "the limit was counted at priorities \(priorities.sorted()), not at .background")
        await withKnownIssue {
            await awaitResult(
                of: { await never.reach(1) }, within: .milliseconds(50), orRecord: sampleLesson,
                timerPriority: .background)
        } matching: { issue in
            sampleLesson.matches(issue)
        }
        never.increment()  // release the abandoned waiters
    }

    @Test("With a progress count, the limit starts again while the count moves, and holds once it stops")
    func progressExtendsTheLimit() async {
        // The count moves at each of its first 60 readings (one per tick), then stops. The
        // limit is 25 ticks, so the wait reads it 60 times while it moves and 25 more.
        let readings = Locked(0)
        let moving: @Sendable () -> Int = { min(readings.incremented(), 60) }
        await sleepCountingRunnableTime(for: .milliseconds(50), progress: moving)
        let whileMovingThenStopped: Int = readings.withLock { $0 }
        #expect(whileMovingThenStopped == 1 + 59 + 25)

        // A count that never stops moving is allowed `allowance` limits in all (the bounded
        // waits use `progressAllowance`; a smaller one keeps this test short).
        readings.withLock { $0 = 0 }
        await sleepCountingRunnableTime(for: .milliseconds(50), progress: { readings.incremented() }, allowance: 3)
        let neverStopping: Int = readings.withLock { $0 }
        #expect(neverStopping == 1 + 25 * 3)
    }
}

@Suite("Instruments: lessons")
struct LessonTests {
    @Test("A lesson's message names the bug and the README section to read")
    func message() {
        #expect(
            sampleLesson.message
                == "the sample bug: used to check the instruments — see 'Nowhere' in Chapters/00-Instruments/README.md")
    }

    @Test("A lesson matches only issues that carry its bug phrase")
    func matching() async {
        withKnownIssue {
            sampleLesson.record("detail")
            Issue.record("something else entirely")
        } matching: { issue in
            let isSample = sampleLesson.matches(issue)
            let mentionsSample = issue.comments.contains { $0.rawValue.contains("the sample bug") }
            #expect(isSample == mentionsSample)
            return true
        }
    }
}

@Suite("Instruments: crash containment")
struct CrashContainmentTests {
    @Test("A double resume inside an exit test ends the child, not the run, and is explained")
    func doubleResumeIsContained() async {
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .failure) { [log = log as CrashLog] in
                log.captureStandardError()
                let _: Int = await withCheckedContinuation { continuation in
                    continuation.resume(returning: 1)
                    continuation.resume(returning: 2)
                }
            }
        }
        #expect(run != nil)
        let diagnosis = CrashDiagnosis.diagnose(stderr: log.contents)
        #expect(diagnosis.contains("resumed a second time"))
        #expect(diagnosis.contains("SWIFT TASK CONTINUATION MISUSE"))
        try? FileManager.default.removeItem(atPath: log.path)
    }

    @Test("A bounded wait ends at once when the runtime reports the awaited continuation leaked, and says so")
    func leakedContinuationEndsTheWait() async {
        let log = CrashLog()
        // A limit no run would wait out: if the leak report were missed, the child would
        // wait a minute and then fail, because `leaked` is false.
        await offThePool {
            await #expect(processExitsWith: .success) { [log = log as CrashLog] in
                log.captureStandardError()
                let (outcome, leaked) = await boundedWait(.seconds(60)) {
                    await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
                }
                guard case .stillSuspended = outcome, leaked else { exit(1) }
            }
        }
        #expect(log.contents.contains(ContinuationLeaks.phrase))
        try? FileManager.default.removeItem(atPath: log.path)
    }

    @Test("Of four waits at once, only the one whose continuation leaked ends early on the report")
    func leakEndsOnlyItsOwnWait() async {
        let log = CrashLog()
        await offThePool {
            await #expect(processExitsWith: .success) { [log = log as CrashLog] in
                log.captureStandardError()
                // The other three operations finish only well after the report can be read.
                let others = gateOpeningAfterALeakReport()
                let ends = await withTaskGroup(of: (Int, Bool, Bool).self) { group in
                    for index in 0..<4 {
                        group.addTask {
                            let (outcome, leaked) = await boundedWait(.seconds(10)) {
                                if index == 3 {
                                    await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
                                } else {
                                    try await others.pass()
                                }
                            }
                            guard case .finished = outcome else { return (index, false, leaked) }
                            return (index, true, leaked)
                        }
                    }
                    return await group.reduce(into: [Int: (finished: Bool, leaked: Bool)]()) { $0[$1.0] = ($1.1, $1.2) }
                }
                let othersFinished = (0..<3).allSatisfy { ends[$0]?.finished == true && ends[$0]?.leaked == false }
                guard othersFinished, ends[3]?.finished == false, ends[3]?.leaked == true else { exit(1) }
            }
        }
        #expect(log.contents.contains(ContinuationLeaks.phrase))
        try? FileManager.default.removeItem(atPath: log.path)
    }

    @Test("A wait told not to end on leaks goes on when another continuation leaks, and ends with its operation")
    func unrelatedLeakDoesNotEndTheWait() async {
        let log = CrashLog()
        await offThePool {
            await #expect(processExitsWith: .success) { [log = log as CrashLog] in
                log.captureStandardError()
                // Another continuation leaks during the wait. The awaited operation finishes
                // only well after the runtime's report can be read.
                Task {
                    await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
                }
                let reached = gateOpeningAfterALeakReport()
                let (outcome, leaked) = await boundedWait(.seconds(60), endsOnLeak: false) {
                    try await reached.pass()
                }
                guard case .finished(.success) = outcome, !leaked, ContinuationLeaks.reported() > 0 else { exit(1) }
            }
        }
        #expect(log.contents.contains(ContinuationLeaks.phrase))
        try? FileManager.default.removeItem(atPath: log.path)
    }

    @Test("Without captured standard error, a bounded wait takes its whole limit: no report can be read")
    func noCaptureNoEarlyEnd() async {
        #expect(ContinuationLeaks.reported() == 0)
        // Held, not dropped: this process's standard error is the test run's own.
        let held = Locked<[CheckedContinuation<Void, Never>]>([])
        let (outcome, leaked) = await boundedWait(.milliseconds(50)) {
            await withCheckedContinuation { continuation in held.withLock { $0.append(continuation) } }
        }
        for continuation in held.withLock({ $0 }) { continuation.resume() }
        guard case .stillSuspended = outcome else {
            Issue.record("the operation can't finish")
            return
        }
        #expect(!leaked)
    }

    @Test("A crash explained through CrashLog records the lesson with the runtime's words")
    func explainRecordsTheLesson() async {
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .failure) { [log = log as CrashLog] in
                log.captureStandardError()
                let missing: Int? = nil
                print(missing!)
            }
        }
        #expect(run != nil)
        #expect(CrashDiagnosis.diagnose(stderr: log.contents).contains("force unwrap (!) found nil"))
        // `explain` records only when the exit test failed, which it reports as a nil result.
        withKnownIssue {
            log.explain(nil, as: sampleLesson)
        } matching: { issue in
            sampleLesson.matches(issue) && issue.comments.contains { $0.rawValue.contains("force unwrap") }
        }
        #expect(!FileManager.default.fileExists(atPath: log.path), "explain removes the log")
    }

    @Test("An exercise that calls exit(0) mid-scenario is reported as ending the process early")
    func exitZeroIsNotAPass() async {
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .success) { [log = log as CrashLog] in
                await log.runScenario {
                    exit(0)
                }
            }
        }
        #expect(run != nil, "the child exited with status 0, which the exit test alone counts as success")
        withKnownIssue {
            log.explain(run, as: sampleLesson)
        } matching: { issue in
            Lesson.endedProcessEarly(chapter: sampleLesson.chapter).matches(issue)
        }
    }

    @Test("An exercise that calls exit(1) mid-scenario is reported as ending the process early, not as a trap")
    func exitOneIsNotATrap() async {
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .failure) { [log = log as CrashLog] in
                await log.runScenario {
                    exit(1)
                }
            }
        }
        #expect(run != nil)
        withKnownIssue {
            log.explain(nil, as: sampleLesson)
        } matching: { issue in
            Lesson.endedProcessEarly(chapter: sampleLesson.chapter).matches(issue) && !sampleLesson.matches(issue)
        }
    }

    @Test("A scenario that runs to its end records nothing")
    func finishedScenarioRecordsNothing() async {
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .success) { [log = log as CrashLog] in
                await log.runScenario {
                    #expect(Bool(true))
                }
            }
        }
        #expect(run != nil)
        log.explain(run, as: sampleLesson)
    }

    @Test("A failed allocation is diagnosed as running out of memory, not as a misused continuation")
    func outOfMemoryIsNamed() {
        let diagnosis = CrashDiagnosis.diagnose(stderr: "Fatal error: Could not allocate memory.\n")
        #expect(diagnosis.contains("ran out of memory"))
        #expect(!diagnosis.contains("continuation"))
    }

    @Test("A clean run records nothing")
    func cleanRunRecordsNothing() async {
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .success) { [log = log as CrashLog] in
                log.captureStandardError()
            }
        }
        log.explain(run, as: sampleLesson)
    }
}

@Suite("Instruments: the exercise-check mode")
struct WorkbookModeTests {
    @Test("The mode is read from WORKBOOK_MODE, and the exposes-bug trait knows its lessons")
    func modeAndTrait() {
        let expected: WorkbookMode =
            ProcessInfo.processInfo.environment["WORKBOOK_MODE"] == "exercise-check" ? .exerciseCheck : .learner
        #expect(WorkbookMode.current == expected)
        let trait: ExposesBugTrait = .exposesBug(sampleLesson)
        #expect(trait.lessons == [sampleLesson])
    }

    private func exerciseCheck(_ body: @escaping @Sendable () -> Void) async throws {
        var trait: ExposesBugTrait = .exposesBug(sampleLesson)
        trait.modeOverride = .exerciseCheck
        let test = try #require(Test.current)
        try await trait.provideScope(for: test, testCase: Test.Case.current) { body() }
    }

    @Test("Exercise check: a marked test that fails for its lesson passes")
    func failsForItsReason() async throws {
        try await exerciseCheck { sampleLesson.record() }
    }

    @Test("Exercise check: a marked test that no longer fails is itself a failure")
    func accidentallyFixed() async throws {
        try await withKnownIssue {
            try await exerciseCheck {}
        } matching: { issue in
            if case .knownIssueNotRecorded = issue.kind { return true }
            return false
        }
    }

    @Test("Exercise check: a marked test that fails for another reason is a failure")
    func failsForAnotherReason() async throws {
        try await withKnownIssue {
            try await exerciseCheck { Issue.record("an unrelated failure") }
        } matching: { issue in
            issue.comments.contains { $0.rawValue == "an unrelated failure" }
        }
    }

    @Test("Exercise check, a bug that shows in some runs only: a pass is fine, and a failure for its lesson too")
    func intermittentBug() async throws {
        var trait: ExposesBugTrait = .mayExposeBug(sampleLesson)
        trait.modeOverride = .exerciseCheck
        let test = try #require(Test.current)
        try await trait.provideScope(for: test, testCase: Test.Case.current) {}
        try await trait.provideScope(for: test, testCase: Test.Case.current) { sampleLesson.record() }
    }

    @Test("Learner mode: the trait does nothing, so a failure is reported as it is")
    func learnerModeIsTransparent() async throws {
        var trait: ExposesBugTrait = .exposesBug(sampleLesson)
        trait.modeOverride = .learner
        let test = try #require(Test.current)
        try await withKnownIssue {
            try await trait.provideScope(for: test, testCase: Test.Case.current) { sampleLesson.record() }
        } matching: {
            sampleLesson.matches($0)
        }
    }
}

extension Locked<Int> {
    /// Adds one, and returns the new count.
    fileprivate func incremented() -> Int {
        withLock { count in
            count += 1
            return count
        }
    }
}
