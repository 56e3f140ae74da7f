/// The state of a simulated URLSession task, which `resume()` starts at most once.
protocol ResumableState {
    /// Whether the task has been neither resumed nor cancelled yet.
    var isSuspended: Bool { get }
    /// The state while `resume()` creates the work, outside the lock.
    static var starting: Self { get }
}

extension Locked where State: ResumableState {
    /// Moves a suspended task to ``ResumableState/starting``. False when it was resumed,
    /// finished or cancelled before: then `resume()` does nothing, as URLSession's does.
    func claimStart() -> Bool {
        withLock { state in
            guard state.isSuspended else { return false }
            state = .starting
            return true
        }
    }
}
