import Foundation
import SimulatedWorld
import Testing

@testable import WorkbookTesting

@Suite("Instruments: exit tests wait for their children off the cooperative pool")
struct OffThePoolTests {
    /// Each child tells the parent it is waiting (a byte on a FIFO), then waits for a lock the
    /// parent holds. The parent lets the children go from a task on the pool, once all of them
    /// wait. If waiting for the children held every pool thread, that task could not run: each
    /// child's alarm would end it after 10 s, by a signal, and fail its exit test.
    @Test("While its exit tests wait for their children, the test's own tasks still run")
    func waitingLeavesThePoolFree() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "workbook-off-the-pool-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let lockPath = folder.appending(path: "lock").path
        let readyPath = folder.appending(path: "ready").path
        #expect(FileManager.default.createFile(atPath: lockPath, contents: nil))
        #expect(mkfifo(readyPath, 0o600) == 0)
        let lock = open(lockPath, O_RDWR | O_CLOEXEC)
        #expect(flock(lock, LOCK_EX) == 0)

        // More children than the pool has threads at this priority.
        let children = PoolWatchdog.callersPerPriority
        let waiting = ObservedCount()
        Thread.detachNewThread {
            // Read and write, so that the FIFO never reports an end between two children.
            let ready = open(readyPath, O_RDWR | O_CLOEXEC)
            var byte: UInt8 = 0
            while waiting.value < children, read(ready, &byte, 1) == 1 { waiting.increment() }
            close(ready)
        }

        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<children {
                group.addTask {
                    _ = await offThePool {
                        await #expect(
                            processExitsWith: .success,
                            "the child waited for the parent's lock until its own limit: while exit tests waited for their children, no pool thread was left for the test"
                        ) { [lockPath = lockPath as String, readyPath = readyPath as String] in
                            // The failure path's bound: the kernel ends a child still waiting
                            // after 10 s with SIGALRM (a kernel timer).
                            alarm(10)
                            let ready = open(readyPath, O_WRONLY)
                            var byte: UInt8 = 1
                            _ = write(ready, &byte, 1)
                            close(ready)
                            let lock = open(lockPath, O_RDONLY)
                            flock(lock, LOCK_SH)
                        }
                    }
                }
            }
            // On the pool, at the priority of the tasks that wait for the children.
            await waiting.reach(children)
            flock(lock, LOCK_UN)
            close(lock)
        }
    }
}
