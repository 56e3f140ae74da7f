import Foundation
import SimulatedWorld
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps what a child process printed on standard error, so that a crash can be explained,
/// and proves that the child's scenario ran to its end.
///
/// Code that may trap (a double resume, a force unwrap of nil) runs in an exit test, so
/// that the trap ends a child process instead of the test run. When the child's exit
/// condition does not match, Swift Testing returns no result to inspect, so the child
/// sends its standard error to a file that the parent reads afterwards. The child runs its
/// scenario through ``runScenario(_:)``, which marks the end in that file: an exercise that
/// calls `exit(0)` half-way would otherwise look like a clean, passing child.
///
/// ```swift
/// let log = CrashLog()
/// let run = await offThePool {
///     await #expect(processExitsWith: .success, lesson.comment) { [log = log as CrashLog] in
///         await log.runScenario {
///             // … code that may trap …
///         }
///     }
/// }
/// log.explain(run, as: lesson)
/// ```
public struct CrashLog: Sendable, Codable {
    /// Where the child writes its standard error.
    public let path: String

    public init() {
        path =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("workbook-child-\(UUID().uuidString).stderr").path
    }

    /// In the child process: sends everything written to standard error from now on,
    /// including the runtime's last words before a trap, to ``path``.
    public func captureStandardError() {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { return }
        dup2(descriptor, STDERR_FILENO)
        close(descriptor)
        ContinuationLeaks.watch(path)
    }

    /// In the child process: captures standard error, runs `scenario`, and marks in the log
    /// that it reached its end. If anything ends the process first (`exit(0)` in the
    /// exercise, say), the log says so instead, and ``explain(_:as:)`` reports it.
    /// An error thrown by `scenario` is recorded as an issue; the scenario still counts as
    /// finished, because the test itself decided to stop. Before it counts as finished, the
    /// callbacks the simulated world has scheduled run to their end (within the hang limit).
    public func runScenario(_ scenario: () async throws -> Void) async {
        captureStandardError()
        ScenarioMarker.armExitWatch()
        ScenarioMarker.start()
        do {
            try await scenario()
        } catch is ExpectationFailedError {
            // `#require` already recorded its issue.
        } catch {
            Issue.record(error)
        }
        // A callback the simulated world already scheduled may still misbehave (resume a second
        // time, say): let it run now, so it does so every time, not only when it beats the exit.
        _ = await withinHangLimit { await ScheduledCallbacks.drained() }
        ScenarioMarker.finish()
    }

    /// What the child wrote to standard error, or "" if it wrote nothing. Bytes that are not
    /// UTF-8 (the test harness writes some) become replacement characters.
    public var contents: String {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// In the parent, after the exit test: records what went wrong in the child, if anything,
    /// and removes the log file either way.
    /// - The child ended the process before its scenario finished (an `exit` in the
    ///   exercise): records ``Lesson/endedProcessEarly(chapter:)``, whatever its exit status.
    /// - The child ran out of memory: records ``Lesson/ranOutOfMemory(chapter:)``.
    /// - The child did not exit cleanly (`run` is nil): records `lesson`, with `detail` (what
    ///   the test knows of the moment, one line each) and the runtime's message translated into
    ///   plain words.
    public func explain(
        _ run: ExitTest.Result?, as lesson: Lesson, detail: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let stderr = contents
        let diagnosis = CrashDiagnosis.diagnose(stderr: stderr)
        let endedEarly =
            stderr.contains(ScenarioMarker.exitedEarly)
            || (run != nil && stderr.contains(ScenarioMarker.started) && !stderr.contains(ScenarioMarker.finished))
        if endedEarly {
            Lesson.endedProcessEarly(chapter: lesson.chapter).record(
                run == nil ? diagnosis : nil, sourceLocation: sourceLocation)
        } else if run == nil, CrashDiagnosis.ranOutOfMemory(stderr: stderr) {
            Lesson.ranOutOfMemory(chapter: lesson.chapter).record(diagnosis, sourceLocation: sourceLocation)
        } else if run == nil {
            lesson.record(
                [detail, diagnosis].compactMap { $0 }.joined(separator: "\n"), sourceLocation: sourceLocation)
        }
    }
}

/// The lines a child writes to its ``CrashLog`` about how its scenario ended.
enum ScenarioMarker {
    /// Written when the scenario starts.
    static let started = "[workbook] scenario started"
    /// Written when the scenario returned.
    static let finished = "[workbook] scenario finished"
    /// Written by an exit handler when the process ends before that.
    static let exitedEarly = "[workbook] the process exited before the scenario finished"

    private static let state = Locked((armed: false, finished: false))

    /// Registers (once) an exit handler that notes an exit before ``finish()``.
    static func armExitWatch() {
        let firstTime = state.withLock { state in
            defer { state.armed = true }
            return !state.armed
        }
        guard firstTime else { return }
        atexit {
            let finished = ScenarioMarker.state.withLock { $0.finished }
            if !finished { ScenarioMarker.note(ScenarioMarker.exitedEarly) }
        }
    }

    /// Notes that the scenario started.
    static func start() { note(started) }

    /// Notes that the scenario reached its end.
    static func finish() {
        state.withLock { $0.finished = true }
        note(finished)
    }

    /// Writes `line` to standard error (the child's ``CrashLog``) at once, unbuffered.
    static func note(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}

extension Lesson {
    /// The exercise ended the process (`exit`, say) while a scenario was still running.
    public static func endedProcessEarly(chapter: String) -> Lesson {
        Lesson(
            chapter: chapter, bug: "the exercise ended the process before the scenario finished",
            explanation:
                "something on the path this test runs called exit(…) (or ended the process another way), so the test's checks never ran; a chapter is done only when every scenario runs to its end",
            section: "When a test says the process ended early", reading: "README.md")
    }

    /// The exercise allocated memory until the process was stopped.
    public static func ranOutOfMemory(chapter: String) -> Lesson {
        Lesson(
            chapter: chapter, bug: "the exercise ran out of memory",
            explanation:
                "something on the path this test runs kept allocating (an ever-growing array or buffer, or a loop that never ends) until the process could get no more memory",
            section: "When a test says the process ended early", reading: "README.md")
    }
}

/// Translates the Swift runtime's crash output into the learner's terms.
public enum CrashDiagnosis {
    /// Explains in plain words what the runtime printed before the process died.
    public static func diagnose(stderr: String) -> String {
        let lines = stderr.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("[workbook] ") }
        let runtimeLines = lines.filter { line in
            line.contains("SWIFT TASK CONTINUATION MISUSE") || line.contains("Fatal error")
        }
        var why: String
        if stderr.contains(ScenarioMarker.exitedEarly) {
            why = "The process exited (through exit(…) or a return from main) before the scenario finished."
        } else if stderr.contains("tried to resume its continuation more than once") {
            why = "The process trapped: a continuation was resumed a second time."
        } else if stderr.contains("Unexpectedly found nil while unwrapping") {
            why = "The process trapped: a force unwrap (!) found nil."
        } else if ranOutOfMemory(stderr: stderr) {
            why = "The process ran out of memory."
        } else if stderr.contains("Fatal error") {
            why = "The process trapped on a fatal error."
        } else {
            why = "The process did not exit cleanly."
        }
        // A trap may print nothing (an isolation check's SIGILL, say): then quote the last lines
        // the process wrote, without claiming the runtime wrote them.
        let quoted = (runtimeLines.isEmpty ? Array(lines.suffix(3)) : runtimeLines)
            .map { "    " + $0 }.joined(separator: "\n")
        let heading = runtimeLines.isEmpty ? "The last lines the process wrote:" : "The runtime said:"
        if !quoted.isEmpty { why += "\n  \(heading)\n" + quoted }
        return why
    }

    /// Whether the runtime's last words say that an allocation failed.
    static func ranOutOfMemory(stderr: String) -> Bool {
        ["Could not allocate memory", "out of memory", "std::bad_alloc", "Cannot allocate memory"]
            .contains { stderr.contains($0) }
    }
}
