import Foundation

/// The toolchain's Swift compiler, found the way the workbook's own build found it, and run in a
/// child process.
enum SwiftCompiler {
    /// The command that runs `swiftc`, or why none was found.
    ///
    /// In order: `WORKBOOK_SWIFTC`; on Linux, the toolchain whose `libswiftCore.so` this process
    /// loaded (the one that built the tests); `swiftc` on `PATH`; on macOS, `xcrun swiftc`.
    static let command: Result<[String], CompilerUnavailable> = locate(
        environment: ProcessInfo.processInfo.environment)

    /// Why the compiler could not be run.
    struct CompilerUnavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// The command that runs `swiftc`, given the process's environment.
    static func locate(environment: [String: String]) -> Result<[String], CompilerUnavailable> {
        if let path = environment["WORKBOOK_SWIFTC"], !path.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: path) else {
                return .failure(.init(description: "WORKBOOK_SWIFTC=\(path) is not an executable file"))
            }
            return .success([path])
        }
        #if os(Linux)
            if let path = swiftcBesideLoadedRuntime() { return .success([path]) }
        #endif
        for folder in (environment["PATH"] ?? "").split(separator: ":") {
            let path = "\(folder)/swiftc"
            if FileManager.default.isExecutableFile(atPath: path) { return .success([path]) }
        }
        #if os(macOS)
            if FileManager.default.isExecutableFile(atPath: "/usr/bin/xcrun") {
                return .success(["/usr/bin/xcrun", "swiftc"])
            }
        #endif
        return .failure(
            .init(
                description:
                    "no Swift compiler found: not beside the Swift runtime this test loaded, not 'swiftc' on PATH"
                    + " (set WORKBOOK_SWIFTC to the swiftc of the toolchain that runs the tests)"))
    }

    #if os(Linux)
        /// `<toolchain>/usr/bin/swiftc`, from the path of the `libswiftCore.so` this process loaded
        /// (`<toolchain>/usr/lib/swift/linux/libswiftCore.so`).
        private static func swiftcBesideLoadedRuntime() -> String? {
            // procfs files report a size of 0, so read to the end rather than by size.
            guard let handle = FileHandle(forReadingAtPath: "/proc/self/maps"),
                let data = try? handle.readToEnd()
            else { return nil }
            try? handle.close()
            let maps = String(decoding: data, as: UTF8.self)
            for line in maps.split(separator: "\n") where line.hasSuffix("/libswiftCore.so") {
                guard let slash = line.firstIndex(of: "/") else { continue }
                let library = URL(fileURLWithPath: String(line[slash...]))
                let usr = library.deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent().deletingLastPathComponent()
                let swiftc = usr.appendingPathComponent("bin/swiftc").path
                if FileManager.default.isExecutableFile(atPath: swiftc) { return swiftc }
            }
            return nil
        }
    #endif

    /// The build folder's `Modules` directory, which holds the modules the tests were built with
    /// (`SimulatedWorld`, …): found upward from this process's executable.
    static let modulesFolder: String? = {
        var folder = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
            .deletingLastPathComponent()
        while folder.path != "/" && !folder.path.isEmpty {
            let modules = folder.appendingPathComponent("Modules")
            if FileManager.default.fileExists(atPath: modules.appendingPathComponent("SimulatedWorld.swiftmodule").path)
            {
                return modules.path
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }()

    /// What one compile printed, and how it ended.
    struct Run: Sendable {
        let status: Int32
        let output: String
    }

    /// Runs the compiler with `arguments`, and gives up (killing it) after `limit`.
    static func run(_ arguments: [String], limit: Duration = .seconds(180)) async throws -> Run {
        let command = try Self.command.get()
        let outputFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("workbook-swiftc-\(UUID().uuidString).txt")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: outputFile) }
        let handle = try FileHandle(forWritingTo: outputFile)
        defer { try? handle.close() }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst()) + arguments
        process.standardOutput = handle
        process.standardError = handle
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
                return
            }
            let seconds = Double(limit.components.seconds)
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [process] in
                if process.isRunning { process.terminate() }
            }
        }
        let data = (try? Data(contentsOf: outputFile)) ?? Data()
        return Run(status: status, output: String(decoding: data, as: UTF8.self))
    }
}
