import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps what a child process printed on standard error, so that a crash can be explained.
///
/// Code that may trap (a double resume, a force unwrap of nil) runs in an exit test, so
/// that the trap ends a child process instead of the test run. When the child's exit
/// condition does not match, Swift Testing returns no result to inspect, so the child
/// sends its standard error to a file that the parent reads afterwards:
///
/// ```swift
/// let log = CrashLog()
/// let run = await #expect(processExitsWith: .success, lesson.comment) { [log = log as CrashLog] in
///     log.captureStandardError()
///     // … code that may trap …
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
    }

    /// What the child wrote to standard error, or "" if it wrote nothing.
    public var contents: String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    /// In the parent, after the exit test: if the child did not exit cleanly (`run` is nil),
    /// records `lesson` together with the runtime's message translated into plain words.
    /// Removes the log file either way.
    public func explain(
        _ run: ExitTest.Result?, as lesson: Lesson,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard run == nil else { return }
        lesson.record(CrashDiagnosis.diagnose(stderr: contents), sourceLocation: sourceLocation)
    }
}

/// Translates the Swift runtime's crash output into the learner's terms.
public enum CrashDiagnosis {
    /// Explains in plain words what the runtime printed before the process died.
    public static func diagnose(stderr: String) -> String {
        let lines = stderr.split(separator: "\n").map(String.init)
        let runtimeLines = lines.filter { line in
            line.contains("SWIFT TASK CONTINUATION MISUSE") || line.contains("Fatal error")
        }
        var why: String
        if stderr.contains("tried to resume its continuation more than once") {
            why = "The process trapped: a continuation was resumed a second time."
        } else if stderr.contains("Unexpectedly found nil while unwrapping") {
            why = "The process trapped: a force unwrap (!) found nil."
        } else if stderr.contains("Fatal error") {
            why = "The process trapped on a fatal error."
        } else {
            why = "The process did not exit cleanly."
        }
        let quoted = (runtimeLines.isEmpty ? Array(lines.suffix(3)) : runtimeLines)
            .map { "    " + $0 }.joined(separator: "\n")
        if !quoted.isEmpty { why += "\n  The runtime said:\n" + quoted }
        return why
    }
}
