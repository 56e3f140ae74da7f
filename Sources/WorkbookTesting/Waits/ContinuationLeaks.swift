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

/// The bounded waits of this process that may end on a leaked-continuation report, each with
/// the number of reports made when it began.
///
/// The runtime's report names the function whose continuation leaked, not the call, so when
/// several waits are pending a report can't say whose it is. Every leak reported belongs to a
/// pending wait's operation (or one began before the wait, which the wait doesn't count), and
/// an operation whose continuation leaked never finishes: so once the reports since a wait
/// began cover every pending wait that began before the latest report, this wait's operation
/// is surely among the leaked ones.
final class PendingLeakWaits: Sendable {
    static let shared = PendingLeakWaits()

    private struct State {
        var nextID = 0
        var leaksBefore: [Int: Int] = [:]
    }
    private let state = Locked(State())

    /// A wait begins, `leaksBefore` reports having been made; returns its id.
    func begin(leaksBefore: Int) -> Int {
        state.withLock { state in
            state.nextID += 1
            state.leaksBefore[state.nextID] = leaksBefore
            return state.nextID
        }
    }

    /// The wait `id` ended, however.
    func end(_ id: Int) {
        state.withLock { _ = $0.leaksBefore.removeValue(forKey: id) }
    }

    /// Whether the reports made since wait `id` began can only mean that its operation leaked.
    func leakIsSurelyMine(_ id: Int) -> Bool {
        let reported = ContinuationLeaks.reported()
        return state.withLock { state in
            guard let mine = state.leaksBefore[id], reported > mine else { return false }
            let couldOwnOne = state.leaksBefore.values.filter { $0 < reported }.count
            return reported - mine >= couldOwnOne
        }
    }
}
