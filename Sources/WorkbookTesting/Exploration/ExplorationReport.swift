import SimulatedWorld
import Testing

// What the exploration instruments (every cancel point, every failure point, operation
// sequences against a model, interleavings) have in common: a broken promise, the run that
// broke it, and a report that either returns its findings or records them as lessons.
// See EXPLORATION.md in this folder for how the instruments fit together.

/// One promise of a chapter's contract that a run broke: the lesson, and what was observed.
public struct Violation: Sendable, CustomStringConvertible {
    /// The bug, as the chapter teaches it.
    public let lesson: Lesson
    /// What the run did, in the learner's terms, for example "it threw CancellationError".
    public let observed: String

    /// A broken promise: `lesson`, seen as `observed`.
    public init(_ lesson: Lesson, _ observed: String) {
        self.lesson = lesson
        self.observed = observed
    }

    /// The bug phrase and what was observed, on one line.
    public var description: String { "\(lesson.bug): \(observed)" }
}

/// A violation together with the run that showed it, written so a learner can replay it.
public struct ExplorationFinding: Sendable, CustomStringConvertible {
    /// The broken promise.
    public let violation: Violation
    /// The run, step by step: the operations, the cancel or failure point, the order or the
    /// seed. Running what it names again shows the same violation.
    public let reproducer: String

    /// A finding: `violation`, shown by the run that `reproducer` describes.
    public init(_ violation: Violation, reproducer: String) {
        self.violation = violation
        self.reproducer = reproducer
    }

    /// What was observed, then the reproducer.
    public var description: String { "\(violation.observed)\n\(reproducer)" }
}

/// What one exploration found: every run it made, and the promises those runs broke.
///
/// An instrument returns a report and records nothing by itself, so a test can examine the
/// findings (the instruments' own tests do). A chapter's test calls ``record(sourceLocation:)``.
public struct ExplorationReport: Sendable {
    /// The instrument, for example "every cancel point".
    public let instrument: String
    /// The scenario the test named, for example "fetchThumbnails of a, b".
    public let scenario: String
    /// How many runs the exploration made, the baseline included.
    public let runs: Int
    /// Every violation, in the order the runs found them.
    public let findings: [ExplorationFinding]
    /// Whether the exploration stopped after a run that hung and broke a promise (see
    /// ``HangTally``), leaving the rest of its runs untried.
    public let stoppedAfterHang: Bool

    /// A report of `runs` runs of `scenario` under `instrument`, with its `findings`.
    public init(
        instrument: String, scenario: String, runs: Int, findings: [ExplorationFinding],
        stoppedAfterHang: Bool = false
    ) {
        self.instrument = instrument
        self.scenario = scenario
        self.runs = runs
        self.findings = findings
        self.stoppedAfterHang = stoppedAfterHang
    }

    /// Whether every run kept every promise.
    public var passed: Bool { findings.isEmpty }

    /// The lessons the findings teach, each once, in the order first found.
    public var lessons: [Lesson] {
        var seen: Set<Lesson> = []
        return findings.map(\.violation.lesson).filter { seen.insert($0).inserted }
    }

    /// Records the first finding of each lesson as a test issue: the lesson's message, what
    /// was observed, the reproducer, and how many other runs broke the same promise.
    public func record(sourceLocation: SourceLocation = #_sourceLocation) {
        for lesson in lessons {
            let same = findings.filter { $0.violation.lesson == lesson }
            let others =
                (same.count > 1 ? "\n(\(same.count - 1) other run(s) of this exploration broke the same promise.)" : "")
                + (stoppedAfterHang ? "\n" + Self.stoppedAfterHang : "")
            // The header, what was observed and each line of the reproducer stand on lines of
            // their own, so that each can be shown in the learner's language.
            lesson.record(
                "Found by \(instrument), in \(scenario):\n\(same[0].violation.observed)\n\(same[0].reproducer)\(others)",
                sourceLocation: sourceLocation)
        }
    }
}

/// How a run ended, for a reproducer: `returned …`, `threw …`, or `still suspended`.
public func describeOutcome<Value>(_ outcome: Result<Value, any Error>?) -> String {
    switch outcome {
    case .none: "it was still suspended after \(hangLimit)"
    case .success(let value): "it returned \(value)"
    case .failure(let error): describeThrown(error)
    }
}

/// Numbered steps, one a line, for a reproducer: `  1. request image "a"`.
func numbered(_ steps: [String], from first: Int = 1) -> String {
    if steps.isEmpty { return "  (none)" }
    return steps.enumerated().map { "  \($0.offset + first). \($0.element)" }.joined(separator: "\n")
}

/// Runs `operation` in a fresh task, once `prepare` has been handed the task's handle, and
/// awaits it within the hang limit. `nil` means it was still suspended then. While `progress`
/// (the steps the run has reported) moves, the limit starts again: on a crowded machine a run
/// of many steps, on the main actor say, is slow, not stuck.
func runBounded<Value: Sendable>(
    prepare: (Task<Value, any Error>) -> Void,
    progress: (@Sendable () -> Int)? = nil,
    limit: Duration = hangLimit,
    _ operation: @escaping @Sendable () async throws -> Value
) async -> Result<Value, any Error>? {
    await runBoundedNotingLeaks(prepare: prepare, progress: progress, limit: limit, operation).outcome
}

/// ``runBounded(prepare:_:)``, and whether the wait ended early because the runtime reported a
/// leaked continuation (inside a ``CrashLog`` scenario).
func runBoundedNotingLeaks<Value: Sendable>(
    prepare: (Task<Value, any Error>) -> Void,
    progress: (@Sendable () -> Int)? = nil,
    limit: Duration = hangLimit,
    _ operation: @escaping @Sendable () async throws -> Value
) async -> (outcome: Result<Value, any Error>?, leaked: Bool) {
    // The task waits at a closed gate until `prepare` has its handle, so that a step the
    // operation reports can always reach the task, even the very first. The gate opens inside
    // the bounded wait, once the wait has counted the leaks reported so far: an operation that
    // drops its continuation at once then ends the wait early, instead of leaking before the
    // count and waiting out the whole limit.
    let start = Gate(closed: true)
    let task = Task {
        try await start.pass()
        return try await operation()
    }
    prepare(task)
    let (outcome, leaked) = await boundedWait(limit, progress: progress) {
        start.open()
        return try await task.value
    }
    switch outcome {
    case .finished(let result): return (result, leaked)
    case .stillSuspended: return (nil, leaked)
    }
}
