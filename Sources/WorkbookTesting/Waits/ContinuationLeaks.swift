import Foundation
import SimulatedWorld

/// The runtime's reports of checked continuations destroyed without being resumed, read from
/// the file a ``CrashLog`` sends a child process's standard error to.
///
/// When the last reference to an unresumed `CheckedContinuation` goes away, the runtime writes
/// "SWIFT TASK CONTINUATION MISUSE: … leaked its continuation without resuming it" to standard
/// error and the awaiting task stays suspended for ever. A bounded wait that sees a new report
/// knows the outcome, and ends without waiting out its limit. Outside a ``CrashLog`` scenario
/// standard error is not readable, so there are no reports, and waits take their full limit.
enum ContinuationLeaks {
    private static let capturedStandardError = Locked<String?>(nil)
    static let phrase = "leaked its continuation"

    /// Starts reading reports from `path`, where standard error now goes.
    static func watch(_ path: String) {
        capturedStandardError.withLock { $0 = path }
    }

    /// How many leaks the runtime has reported so far in this process (0 if standard error is not captured).
    static func reported() -> Int {
        guard let path = capturedStandardError.withLock({ $0 }),
            let data = FileManager.default.contents(atPath: path)
        else { return 0 }
        return String(decoding: data, as: UTF8.self).components(separatedBy: phrase).count - 1
    }
}
