import Foundation
import SimulatedWorld
import Testing

@testable import WorkbookTesting

private let lesson = ChapterReading("00-Instruments").lesson(
    "the sample crash", "used to check the shared child", section: "Nowhere")

/// Scenarios with every outcome a shared child can report, in this order.
private enum SampleScenario: String, ChildScenario, CaseIterable {
    case clean, failsAnExpectation, traps, afterTheTrap

    func run() async {
        switch self {
        case .clean, .afterTheTrap: #expect(Bool(true))
        case .failsAnExpectation: #expect(Bool(false), "the sample expectation failed")
        case .traps:
            let missing: Int? = nil
            print(missing!)
        }
    }
}

/// One child process for all four scenarios, the trap third (run number 4 turns the order
/// of four scenarios back to the start).
private let sharedChild = SharedChild<SampleScenario>(runNumber: 4) { log, scenarios in
    await #expect(processExitsWith: .success, SharedChild<SampleScenario>.launchComment) {
        [log = log as CrashLog, scenarios = scenarios as [SampleScenario]] in
        await log.runScenarios(scenarios) { await $0.run() }
    }
}

@Suite("SharedChild: one child process for a suite's scenarios in CI's repeated runs")
struct SharedChildTests {
    @Test("Each scenario's test reads its own outcome from the one shared child")
    func eachTestReadsItsOwnOutcome() async {
        // The child ends at the trap, so its exit test fails in the test that launched it.
        var ranClean = false
        await withKnownIssue {
            ranClean = await sharedChild.ranShared(.clean, crash: lesson)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("ended the child process that ran every scenario") }
        }
        #expect(ranClean, "a clean scenario ran in the shared child")

        var ranFailing = false
        await withKnownIssue {
            ranFailing = await sharedChild.ranShared(.failsAnExpectation, crash: lesson)
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("the sample expectation failed") && text.contains("shared with the rest of its suite")
                && !lesson.matches(issue)
        }
        #expect(ranFailing)

        var ranTrapping = false
        await withKnownIssue {
            ranTrapping = await sharedChild.ranShared(.traps, crash: lesson)
        } matching: { issue in
            lesson.matches(issue) && issue.comments.contains { $0.rawValue.contains("force unwrap (!) found nil") }
        }
        #expect(ranTrapping)

        let ranAfter = await sharedChild.ranShared(.afterTheTrap, crash: lesson)
        #expect(!ranAfter, "a scenario the trap kept from starting runs in a child of its own")
    }

    @Test("Outside CI's repeated runs, no child is shared and none is launched")
    func noRunNumberNoSharedChild() async {
        let launched = Locked(false)
        let unshared = SharedChild<SampleScenario>(runNumber: nil) { _, _ in
            launched.withLock { $0 = true }
            return nil
        }
        #expect(await !unshared.ranShared(.clean, crash: lesson))
        #expect(!launched.withLock { $0 })
    }

    @Test("Tests that reach their scenarios at once wait for the same child: it is launched once")
    func overlappingCallsLaunchOnce() async {
        let launches = Locked(0)
        let shared = SharedChild<SampleScenario>(runNumber: 2) { _, _ in
            launches.withLock { $0 += 1 }
            return nil  // a child that ran nothing: every scenario then runs alone
        }
        let ranThere = await withTaskGroup(of: Bool.self) { group in
            for scenario in SampleScenario.everyScenario {
                group.addTask { await shared.ranShared(scenario, crash: lesson) }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(launches.withLock { $0 } == 1, "one launch for the whole suite")
        #expect(ranThere == Array(repeating: false, count: SampleScenario.everyScenario.count))
    }

    @Test("The order turns with the run's number, so each scenario is sometimes the first")
    func orderTurnsWithTheRunNumber() {
        #expect(SharedChildRun.order([1, 2, 3], turnedBy: 2) == [3, 1, 2])
        #expect(SharedChildRun.order([1, 2, 3], turnedBy: 4) == [2, 3, 1])
        #expect(SharedChildRun.order([1, 2, 3], turnedBy: 3) == [1, 2, 3])
        #expect(SharedChildRun.order([Int](), turnedBy: 5) == [])
    }
}
