import Foundation

/// A value behind a lock, with the same `withLock` as `Mutex` from Synchronization.
///
/// Why not `Mutex`: on Linux, `Mutex` waits on a futex that ThreadSanitizer does not
/// understand, so two threads that really do take turns are reported as a data race as soon
/// as they contend for it. `NSLock` is built on `pthread_mutex`, which ThreadSanitizer
/// knows. The simulated world is hammered from many threads at once by design, and CI runs
/// the solutions under the sanitizer, so the whole workbook (world, test instruments and
/// solutions) uses this lock: the sanitizer then stays quiet unless a race is real.
public final class Locked<State: Sendable>: @unchecked Sendable {
    // Safe: `state` is only touched while `lock` is held.
    private let lock = NSLock()
    private var state: State

    public init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with exclusive access to the value.
    public func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
