import Foundation
import SimulatedWorld
import Testing

/// A scenario that a suite runs in a child process, one of a fixed list, so that one child can
/// run the whole list (see ``SharedChild``).
public protocol ChildScenario: Codable, Sendable, Equatable {
    /// Every scenario of the suite that runs in a child process, in a fixed order.
    static var everyScenario: [Self] { get }
}

/// One child process for all of a suite's scenarios, in CI's repeated runs of correct code.
///
/// A scenario that may trap runs in a child process of its own (an exit test, see
/// ``CrashLog``). Starting one costs about 20 ms of processor time on a normal day, most of it
/// the dynamic linker and the kernel loading the test binary's libraries, where most
/// scenarios take a few milliseconds; and CI runs the solutions and every right fix 20 times.
/// So from the second of those runs on, `scripts/lib/repeat-tests` and `scripts/variant-check`
/// set `WORKBOOK_SHARED_CHILD` to the run's number, and the first test of a suite to reach its
/// scenario launches one child that runs every scenario of the suite one after another, in an
/// order that turns with the run's number (so each scenario is sometimes the child's first).
/// Each test then reads its own scenario's outcome there:
/// - it ran to its end and recorded nothing: the test passes;
/// - it recorded issues: the test fails and quotes them;
/// - it ended the process: the test records the crash lesson with the runtime's words;
/// - it never started, because a scenario before it ended the child: it runs in a child of its
///   own, as in any other run.
///
/// Without the variable (a learner's run, the exercise check, every wrong fix, the first of
/// CI's runs) and in exercise-check mode, ``ranShared(_:crash:sourceLocation:)`` returns
/// `false` and every scenario runs in a child of its own.
///
/// ```swift
/// static let sharedChild = SharedChild<Scenario> { log, scenarios in
///     await #expect(processExitsWith: .success, SharedChild<Scenario>.launchComment) {
///         [log = log as CrashLog, scenarios = scenarios as [Scenario]] in
///         await log.runScenarios(scenarios) { await $0.run() }
///     }
/// }
///
/// func runInChildProcess() async {
///     if await Self.sharedChild.ranShared(self, crash: crashLesson) { return }
///     // … the scenario's own exit test, as before …
/// }
/// ```
public final class SharedChild<Scenario: ChildScenario>: Sendable {
    /// Runs `scenarios` in one child process (an exit test whose body calls
    /// ``CrashLog/runScenarios(_:_:)`` on `log`), and returns the exit test's result.
    public typealias Launch = @Sendable (_ log: CrashLog, _ scenarios: [Scenario]) async -> ExitTest.Result?

    private let launch: Launch
    private let child = Locked<Task<SharedChildReport, Never>?>(nil)
    /// The run's number (`nil`: not a shared run) to use instead of ``SharedChildRun/number``;
    /// set only by the instruments' own tests.
    private let runNumberOverride: Int??

    public init(launch: @escaping Launch) {
        self.launch = launch
        self.runNumberOverride = nil
    }

    init(runNumber: Int?, launch: @escaping Launch) {
        self.launch = launch
        self.runNumberOverride = .some(runNumber)
    }

    /// The comment for the shared child's exit test: it fails only when a scenario ended the
    /// process, and that scenario's own test then says which and why.
    public static var launchComment: Comment {
        "a scenario ended the child process that ran every scenario of its suite; that scenario's test says which and why"
    }

    /// In a shared run, waits for the suite's shared child and records what `scenario` did
    /// there (`crash` if it ended the process); returns whether it ran there. Returns `false`
    /// at once outside a shared run.
    public func ranShared(
        _ scenario: Scenario, crash: Lesson, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Bool {
        guard let runNumber = runNumberOverride ?? SharedChildRun.number, WorkbookMode.current == .learner else {
            return false
        }
        let task = child.withLock { task in
            if let task { return task }
            let launch = self.launch
            let started = Task {
                let order = SharedChildRun.order(Scenario.everyScenario, turnedBy: runNumber)
                let log = CrashLog()
                // The exit test itself fails when a scenario ended the child: the test that
                // launched it then fails too, and the scenario's own test says why.
                _ = await offThePool { await launch(log, order) }
                return SharedChildReport(order: order.map(Self.key), stderr: log.contents).removing(log)
            }
            task = started
            return started
        }
        let report = await task.value
        guard let index = report.order.firstIndex(of: Self.key(scenario)) else { return false }
        switch report.outcome(of: index) {
        case .notStarted:
            return false
        case .finished(let issues) where issues.isEmpty:
            return true
        case .finished(let issues):
            Issue.record(
                Comment(
                    rawValue:
                        "In the child process this scenario shared with the rest of its suite (CI's repeated runs, README.md, \"Reliability gates\", item 1), it recorded:\n"
                        + issues.map { "  " + $0 }.joined(separator: "\n")),
                sourceLocation: sourceLocation)
            return true
        case .endedTheProcess:
            let diagnosis = CrashDiagnosis.diagnose(stderr: report.stderr)
            if report.stderr.contains(ScenarioMarker.exitedEarly) {
                Lesson.endedProcessEarly(chapter: crash.chapter).record(diagnosis, sourceLocation: sourceLocation)
            } else if CrashDiagnosis.ranOutOfMemory(stderr: report.stderr) {
                Lesson.ranOutOfMemory(chapter: crash.chapter).record(diagnosis, sourceLocation: sourceLocation)
            } else {
                crash.record(
                    "It ended the child process it shared with the rest of its suite (CI's repeated runs).\n"
                        + diagnosis, sourceLocation: sourceLocation)
            }
            return true
        }
    }

    private static func key(_ scenario: Scenario) -> String {
        (try? JSONEncoder().encode(scenario)).map { String(decoding: $0, as: UTF8.self) } ?? "\(scenario)"
    }
}

extension CrashLog {
    /// In the shared child process (see ``SharedChild``): runs each of `scenarios` in turn,
    /// marking in the log when each starts and finishes and every issue it records (as a known
    /// issue here, so that it fails that scenario's own test, not the one that launched the
    /// child). Between scenarios, the callbacks the simulated world scheduled run to their end.
    public func runScenarios<Scenario: Sendable>(
        _ scenarios: [Scenario], _ run: (Scenario) async -> Void
    ) async {
        captureStandardError()
        ScenarioMarker.armExitWatch()
        ScenarioMarker.start()
        for (index, scenario) in scenarios.enumerated() {
            ScenarioMarker.note(SharedChildMarker.started(index))
            await withKnownIssue(isIntermittent: true) {
                await run(scenario)
            } matching: { issue in
                ScenarioMarker.note(SharedChildMarker.issue(index, issue))
                return true
            }
            _ = await withinHangLimit { await ScheduledCallbacks.drained() }
            ScenarioMarker.note(SharedChildMarker.finished(index))
        }
        ScenarioMarker.finish()
    }
}

/// Whether this run shares children, and in which order.
enum SharedChildRun {
    /// Set to the run's number (2, 3, …) by CI's repeats; unset, every scenario has a child of its own.
    static let runNumberVariable = "WORKBOOK_SHARED_CHILD"

    /// The run's number, or `nil` outside a shared run.
    static var number: Int? {
        ProcessInfo.processInfo.environment[runNumberVariable].flatMap(Int.init)
    }

    /// `scenarios`, starting at the one `runNumber` picks and wrapping around.
    static func order<Element>(_ scenarios: [Element], turnedBy runNumber: Int) -> [Element] {
        guard !scenarios.isEmpty else { return [] }
        let start = ((runNumber % scenarios.count) + scenarios.count) % scenarios.count
        return Array(scenarios[start...] + scenarios[..<start])
    }
}

/// The lines the shared child writes about each scenario.
enum SharedChildMarker {
    static let prefix = "[workbook] shared scenario "

    static func started(_ index: Int) -> String { "\(prefix)\(index) started" }
    static func finished(_ index: Int) -> String { "\(prefix)\(index) finished" }
    static func issue(_ index: Int, _ issue: Issue) -> String {
        let place = issue.sourceLocation.map { "\($0.fileName):\($0.line): " } ?? ""
        let text = issue.comments.isEmpty ? "\(issue)" : issue.comments.map(\.rawValue).joined(separator: " ")
        return "\(prefix)\(index) issue: " + place + text.replacingOccurrences(of: "\n", with: " ")
    }
}

/// What the shared child's log says of each scenario.
struct SharedChildReport: Sendable {
    enum Outcome: Equatable {
        case notStarted
        case finished(issues: [String])
        case endedTheProcess
    }

    /// The scenarios in the order the child ran them, each as its JSON.
    let order: [String]
    /// What the child wrote on standard error.
    let stderr: String

    func outcome(of index: Int) -> Outcome {
        let lines = stderr.split(separator: "\n").map(String.init)
        guard lines.contains(SharedChildMarker.started(index)) else { return .notStarted }
        guard lines.contains(SharedChildMarker.finished(index)) else { return .endedTheProcess }
        let issuePrefix = "\(SharedChildMarker.prefix)\(index) issue: "
        return .finished(
            issues: lines.filter { $0.hasPrefix(issuePrefix) }.map { String($0.dropFirst(issuePrefix.count)) })
    }

    /// This report, after removing the log file it was read from.
    func removing(_ log: CrashLog) -> Self {
        try? FileManager.default.removeItem(atPath: log.path)
        return self
    }
}

extension ChildScenario where Self: CaseIterable {
    /// Every case, in declaration order.
    public static var everyScenario: [Self] { Array(allCases) }
}
