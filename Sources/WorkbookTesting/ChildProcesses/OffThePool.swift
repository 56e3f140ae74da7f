import Foundation

/// Runs an exit test's expectation so that waiting for its child process holds no thread of
/// the cooperative pool.
///
/// While the child runs, Swift Testing (6.3, Linux) reads what the child sends back with
/// blocking reads, in child tasks that run on the caller's executor: by default, the
/// cooperative pool, which has one thread per core. So two exit tests at once on a 2-core
/// machine hold the whole pool until their children end, and every other test of the process
/// stands still meanwhile: a run lasts as long as its slowest children, and a hang limit can
/// run out for a test that was only waiting for a thread. Under a task executor preference
/// (SE-0417), those child tasks run on threads of their own instead.
///
/// ```swift
/// let run = await offThePool {
///     await #expect(processExitsWith: .success) { … }
/// }
/// ```
@discardableResult
public func offThePool<Result>(
    isolation: isolated (any Actor)? = #isolation,
    _ expectation: () async -> Result
) async -> Result {
    await withTaskExecutorPreference(ThreadPerJobExecutor.shared, isolation: isolation, operation: expectation)
}

/// A task executor that runs each job on a new thread, so that a job may block.
///
/// Only for the few jobs of waiting for a child process: a thread costs far less than the
/// process it waits for.
final class ThreadPerJobExecutor: TaskExecutor {
    static let shared = ThreadPerJobExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread.detachNewThread { job.runSynchronously(on: executor) }
    }
}
