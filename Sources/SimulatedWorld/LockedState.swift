import Foundation

/// A value guarded by a lock: the simulated transport's counterpart of `Mutex`.
///
/// It is built on `NSLock` (a pthread mutex) rather than `Synchronization.Mutex`, because on
/// Linux Thread Sanitizer cannot see the hand-over of a contended `Mutex` (the kernel does
/// it) and reports the guarded accesses as races. The tests of the transport hit it from
/// many threads at once, and the workbook's TSan gate must stay quiet for correct code.
final class LockedState<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
