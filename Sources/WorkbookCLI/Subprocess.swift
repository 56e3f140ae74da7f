import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C (or SIGTERM) arrived: the running child was stopped and the command should end.
public struct Interrupted: Error {}

/// Child processes, started so that Ctrl-C never leaves one behind.
///
/// Foundation starts each child in its own process group, so a Ctrl-C in the terminal
/// reaches only this process. Its handler passes the interrupt on to the running child's
/// group (SwiftPM then stops its own children), kills the group if it has not gone within
/// a few seconds, and the waiting command ends with ``Interrupted``. With no child running,
/// the handler ends the process at once.
public enum Subprocess {
    /// Runs `arguments` (looked up on PATH) in `directory`, with its output appended to
    /// `log` (or shown, if nil). Returns the exit status.
    public static func run(
        _ arguments: [String], in directory: URL, log: URL? = nil, environment: [String: String]? = nil
    ) throws(Interrupted) -> Int32 {
        let process = makeProcess(arguments, in: directory, environment: environment)
        var handle: FileHandle?
        if let log {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            handle = try? FileHandle(forWritingTo: log)
            process.standardOutput = handle
            process.standardError = handle
        }
        defer { try? handle?.close() }
        return try Interrupts.shared.run(process)
    }

    /// Runs a short command and returns its standard output; nil if it could not start.
    /// Standard error is discarded.
    public static func capture(_ arguments: [String], in directory: URL) -> (status: Int32, output: Data)? {
        let process = makeProcess(arguments, in: directory, environment: nil)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    static func makeProcess(_ arguments: [String], in directory: URL, environment: [String: String]?) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if let environment { process.environment = environment }
        return process
    }
}

/// The Ctrl-C handler and the one child it may have to stop.
final class Interrupts: @unchecked Sendable {
    static let shared = Interrupts()

    private let lock = NSLock()
    private var child: Process?
    private var interrupted = false
    private var signalSources: [any DispatchSourceSignal] = []
    private let queue = DispatchQueue(label: "workbook.interrupts")

    /// Starts `process`, waits for it, and throws ``Interrupted`` if Ctrl-C came meanwhile.
    func run(_ process: Process) throws(Interrupted) -> Int32 {
        installHandlers()
        lock.lock()
        if interrupted {
            lock.unlock()
            throw Interrupted()
        }
        do { try process.run() } catch {
            lock.unlock()
            return 127
        }
        child = process
        lock.unlock()
        process.waitUntilExit()
        lock.lock()
        child = nil
        let stop = interrupted
        lock.unlock()
        if stop { throw Interrupted() }
        return process.terminationStatus
    }

    /// Installs the Ctrl-C/SIGTERM handlers (once).
    func installHandlers() {
        lock.lock()
        defer { lock.unlock() }
        guard signalSources.isEmpty else { return }
        for signalNumber in [SIGINT, SIGTERM] {
            #if canImport(Darwin)
                // kqueue only observes the signal, so its default action must be off. Not on
                // Linux: there libdispatch installs a handler (reset in children on exec),
                // while SIG_IGN would be inherited and make children deaf to the interrupt.
                signal(signalNumber, SIG_IGN)
            #endif
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler { [unowned self] in self.interrupt(signalNumber) }
            source.resume()
            signalSources.append(source)
        }
    }

    private func interrupt(_ signalNumber: Int32) {
        lock.lock()
        let alreadyInterrupted = interrupted
        interrupted = true
        let running = child
        lock.unlock()
        guard let running, running.isRunning else {
            FileHandle.standardError.write(Data("\nStopped.\n".utf8))
            exit(130)
        }
        let group = running.processIdentifier
        if alreadyInterrupted {
            kill(-group, SIGKILL)
            return
        }
        kill(-group, SIGINT)
        queue.asyncAfter(deadline: .now() + 5) {
            if running.isRunning { kill(-group, SIGKILL) }
        }
    }
}
