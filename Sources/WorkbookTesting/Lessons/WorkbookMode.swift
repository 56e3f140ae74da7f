import Foundation

/// How the workbook's tests are being run. Chosen at run time, so no rebuild is needed.
///
/// - `learner`: the default. Tests run against whatever module was built (exercise or
///   solution) and every failure is reported as is.
/// - `exerciseCheck`: set `WORKBOOK_MODE=exercise-check`. A test marked
///   `.exposesBug(lesson)` must fail, and only for that lesson; unmarked tests must pass.
public enum WorkbookMode: String, Sendable {
    case learner
    case exerciseCheck = "exercise-check"

    /// The environment variable that selects the mode.
    public static let environmentVariable = "WORKBOOK_MODE"

    /// The mode of this process, read from ``environmentVariable``.
    public static var current: WorkbookMode {
        guard let raw = ProcessInfo.processInfo.environment[environmentVariable], !raw.isEmpty else {
            return .learner
        }
        guard let mode = WorkbookMode(rawValue: raw) else {
            // One clear line and a plain exit: a fatalError would bury it under a backtrace.
            let message = "error: \(environmentVariable)=\(raw) is not a mode; use 'learner' or 'exercise-check'\n"
            try? FileHandle.standardError.write(contentsOf: Data(message.utf8))
            exit(2)
        }
        return mode
    }
}
