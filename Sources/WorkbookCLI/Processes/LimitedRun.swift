import Foundation

/// A child process run under the learner run's limits: a time limit that starts when a
/// file (the event stream) first gets data, a memory limit per process, output captured
/// up to a cap, and a temporary folder of its own.
public enum LimitedRun {
    /// How the command ended.
    public struct Outcome: Sendable {
        /// The exit status of the command (SwiftPM's, not the test process's).
        public var status: Int32
        /// It went past the time limit and was ended, with everything below it.
        public var passedTimeLimit: Bool
        /// Its standard output and error, interleaved, with the middle left out past the cap.
        public var output: String
        /// The signal that ended the command, if one did (a crash, or the limits' kill).
        public var signal: Int32?
    }

    /// Runs `arguments` (looked up on PATH) in `directory`.
    /// - Parameters:
    ///   - timeLimit: seconds, counted from the moment `clockStart` holds any data (or from
    ///     the start, if nil); nil for no limit.
    ///   - memoryLimitKilobytes: the limit on each process's data (Linux, `ulimit -d`); nil for none.
    ///   - copy: a file that also gets all the output as it comes (for ``BuildProgress``); nil for none.
    public static func run(
        _ arguments: [String], in directory: URL, environment: [String: String],
        timeLimit: TimeInterval?, clockStart: URL?, memoryLimitKilobytes: Int?,
        outputCap: Int = CappedOutput.defaultCap, copy: URL? = nil
    ) throws(Interrupted) -> Outcome {
        let process = Process()
        #if os(Linux)
            if let memoryLimitKilobytes {
                // The limit is inherited by everything the shell starts: SwiftPM, the compiler
                // (which needs far less) and the test process with its exit-test children.
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments =
                    ["-c", "ulimit -d \(memoryLimitKilobytes) 2>/dev/null; exec \"$@\"", "sh"] + arguments
            } else {
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = arguments
            }
        #else
            // Other systems do not enforce a limit on a process's data, so none is set.
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = arguments
        #endif
        process.currentDirectoryURL = directory
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        let output = CappedOutput(cap: outputCap)
        let reader = DispatchGroup()
        reader.enter()
        let handle = pipe.fileHandleForReading
        let copyHandle = copy.flatMap { url -> FileHandle? in
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
            return try? FileHandle(forWritingTo: url)
        }
        Thread.detachNewThread {
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                output.append(data)
                try? copyHandle?.write(contentsOf: data)
            }
            try? copyHandle?.close()
            reader.leave()
        }
        var clockStarted: Date? = clockStart == nil ? Date() : nil
        let result = try Interrupts.shared.run(process) {
            guard let timeLimit else { return false }
            if clockStarted == nil, let clockStart, Self.hasData(clockStart) { clockStarted = Date() }
            guard let clockStarted else { return false }
            return Date().timeIntervalSince(clockStarted) > timeLimit
        }
        // Everything that held the pipe is gone, so its end comes at once; don't wait for
        // ever if something outside the tree kept it open.
        _ = reader.wait(timeout: .now() + 5)
        return Outcome(
            status: result.status, passedTimeLimit: result.stopped, output: output.text,
            signal: result.signaled ? result.status : nil)
    }

    static func hasData(_ url: URL) -> Bool {
        (FileSignature(of: url.path)?.size ?? 0) > 0
    }
}

/// Output kept up to a cap: the start and the end, with what was in between left out,
/// so that a `print` in a loop cannot grow the tool without bound.
public final class CappedOutput: @unchecked Sendable {
    /// Bytes kept at each end.
    public static let defaultCap = 512 * 1024

    private let lock = NSLock()
    private let cap: Int
    private var head = Data()
    private var tail = Data()
    private var leftOut = 0

    public init(cap: Int = CappedOutput.defaultCap) { self.cap = cap }

    public func append(_ data: Data) {
        lock.lock()
        defer { lock.unlock() }
        var data = data[...]
        if head.count < cap {
            let taken = data.prefix(cap - head.count)
            head.append(contentsOf: taken)
            data = data.dropFirst(taken.count)
        }
        guard !data.isEmpty else { return }
        tail.append(contentsOf: data)
        if tail.count > 2 * cap {
            leftOut += tail.count - cap
            tail = Data(tail.suffix(cap))
        }
    }

    /// The output, with a line saying how much was left out in the middle.
    public var text: String {
        lock.lock()
        defer { lock.unlock() }
        var kept = tail
        var dropped = leftOut
        if kept.count > cap {
            dropped += kept.count - cap
            kept = Data(kept.suffix(cap))
        }
        let start = String(decoding: head, as: UTF8.self)
        let end = String(decoding: kept, as: UTF8.self)
        if dropped == 0 { return start + end }
        return start + "\n… (\(dropped) bytes of output left out) …\n" + end
    }
}
