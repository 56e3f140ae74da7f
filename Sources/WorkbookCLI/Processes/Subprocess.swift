import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C, SIGTERM or SIGHUP arrived: everything the tool started was stopped and the
/// command should end.
public struct Interrupted: Error {
    /// The signal that came; the tool exits with 128 + this number.
    public var signal: Int32

    public init(signal: Int32 = SIGINT) { self.signal = signal }
}

/// Child processes, started so that Ctrl-C never leaves one behind.
///
/// Foundation starts each child in its own process group, so a Ctrl-C in the terminal
/// reaches only this process, and closing the terminal (SIGHUP) too. The handler passes
/// the interrupt on to the running child's group (SwiftPM then stops its own children),
/// ends the child's whole process tree (``ProcessTree``) once the child has gone or after a
/// few seconds, and the waiting command ends with ``Interrupted``. With no child running,
/// the handler removes the tool's temporary files and ends the process at once.
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
        return try Interrupts.shared.run(process).status
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

    /// How long SwiftPM gets to stop its own children after the interrupt is passed on.
    static let gracePeriod: TimeInterval = 3

    private let lock = NSLock()
    private var child: Process?
    private var interrupted: Int32?
    /// The child's tree when the interrupt came: ended even if the child goes first.
    private var treeAtInterrupt: [ProcessTree.Member] = []
    /// Folders to remove if a signal ends the tool between two children.
    private var temporaryFolders: [URL] = []
    private var signalSources: [any DispatchSourceSignal] = []
    private let queue = DispatchQueue(label: "workbook.interrupts")
    /// What is said when a signal ends the tool between two children (``Strings/stopped``).
    private var stoppedText = Strings.english.stopped

    /// Says `text` (in the learner's language) when a signal ends the tool between two children.
    func sayWhenStopped(_ text: String) { lock.withLock { stoppedText = text } }

    /// Starts `process` and waits for it. Throws ``Interrupted`` if a signal came meanwhile.
    /// `stopWhen` is asked every tenth of a second while the process runs; when it says
    /// true, the process and everything below it is ended and `stopped` is true.
    /// `signaled` is true when a signal ended the process; then `status` is the signal's number.
    func run(_ process: Process, stopWhen: (() -> Bool)? = nil) throws(Interrupted) -> (
        status: Int32, stopped: Bool, signaled: Bool
    ) {
        installHandlers()
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        lock.lock()
        if let signal = interrupted {
            lock.unlock()
            throw Interrupted(signal: signal)
        }
        do { try process.run() } catch {
            lock.unlock()
            return (127, false, false)
        }
        child = process
        lock.unlock()
        var stopped: Date?
        while exited.wait(timeout: .now() + 0.1) == .timedOut {
            // Ended once the limit passes, and again every few seconds if something survived.
            if stopped.map({ Date().timeIntervalSince($0) > Self.gracePeriod }) ?? (stopWhen?() == true) {
                stopped = Date()
                ProcessTree.end(root: process.processIdentifier)
            }
        }
        process.waitUntilExit()
        lock.lock()
        child = nil
        let signal = interrupted
        let tree = treeAtInterrupt
        lock.unlock()
        if let signal {
            ProcessTree.end(root: process.processIdentifier, earlier: tree)
            throw Interrupted(signal: signal)
        }
        return (process.terminationStatus, stopped != nil, process.terminationReason == .uncaughtSignal)
    }

    /// Removes `folder` if a signal ends the tool before ``forget(_:)`` is called.
    func removeOnSignal(_ folder: URL) {
        lock.lock()
        temporaryFolders.append(folder)
        lock.unlock()
    }

    func forget(_ folder: URL) {
        lock.lock()
        temporaryFolders.removeAll { $0 == folder }
        lock.unlock()
    }

    /// Installs the handlers of Ctrl-C, SIGTERM and SIGHUP (once), and makes a closed
    /// output pipe an error to ignore instead of the end of the tool.
    func installHandlers() {
        lock.lock()
        defer { lock.unlock() }
        guard signalSources.isEmpty else { return }
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] {
            #if canImport(Darwin)
                // kqueue only observes the signal, so its default action must be off. Not on
                // Linux: there libdispatch installs a handler (reset in children on exec),
                // while SIG_IGN would be inherited and make children deaf to the interrupt.
                signal(signalNumber, SIG_IGN)
            #endif
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            if signalNumber != SIGPIPE {
                source.setEventHandler { [unowned self] in self.interrupt(signalNumber) }
            }
            source.resume()
            signalSources.append(source)
        }
    }

    private func interrupt(_ signalNumber: Int32) {
        lock.lock()
        let alreadyInterrupted = interrupted != nil
        if !alreadyInterrupted { interrupted = signalNumber }
        let running = child
        let folders = temporaryFolders
        let stoppedText = stoppedText
        lock.unlock()
        guard let running, running.isRunning else {
            for folder in folders { ToolTemporaryFolder.remove(folder) }
            try? FileHandle.standardError.write(contentsOf: Data(stoppedText.utf8))
            exit(128 + signalNumber)
        }
        let root = running.processIdentifier
        if alreadyInterrupted {
            ProcessTree.end(root: root, earlier: snapshotAtInterrupt())
            return
        }
        let tree = ProcessTree.snapshot(below: root)
        lock.lock()
        treeAtInterrupt = tree
        lock.unlock()
        kill(-root, SIGINT)
        queue.asyncAfter(deadline: .now() + Self.gracePeriod) {
            if running.isRunning { ProcessTree.end(root: root, earlier: tree) }
        }
    }

    private func snapshotAtInterrupt() -> [ProcessTree.Member] {
        lock.lock()
        defer { lock.unlock() }
        return treeAtInterrupt
    }
}
