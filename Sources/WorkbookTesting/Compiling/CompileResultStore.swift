import Foundation

/// What the Swift 6 compiles printed, kept in the build folder from one test process to the next.
///
/// A test process compiles each compile-check chapter once (``Swift6CompileCache``). Processes
/// that run the same tests again, a learner's next check or CI's repeated runs, would compile
/// the same files with the same compiler again. An entry is used only when everything the compile
/// reads is as it was when the entry was written:
/// - the compiler: the paths of its executables, their sizes and modification times;
/// - the arguments, in order;
/// - every source file's path and bytes (so a save within the same second still counts);
/// - the size, modification time and inode of every module in the folder the compile imports
///   from (`-I`), which a build rewrites when it changes them.
///
/// The entry holds all of that and is compared byte for byte, so a stale entry can't decide a
/// chapter: at worst the compile runs again. The store keeps the ``capacity`` entries used last.
struct CompileResultStore: Sendable {
    /// The folder the entries live in.
    let folder: URL
    /// How many entries the store keeps; those used longest ago are removed when a new one is written.
    var capacity = 64

    /// The store beside the build's `Modules` folder, when the tests run from a build folder
    /// and the compiler is a file this process can identify (not `xcrun`, which picks a
    /// toolchain of its own).
    static let shared: CompileResultStore? = {
        guard let modules = SwiftCompiler.modulesFolder,
            case .success(let command) = SwiftCompiler.command, command.count == 1
        else { return nil }
        return CompileResultStore(
            folder: URL(fileURLWithPath: modules).deletingLastPathComponent()
                .appendingPathComponent("workbook-swift6-checks"))
    }()

    /// Everything a compile of `files` with `arguments` by `command` reads, as bytes; nil when a
    /// file can't be read (then nothing is stored).
    static func inputs(command: [String], arguments: [String], files: [URL], modulesFolder: String?) -> Data? {
        var inputs = Data()
        func add(_ line: String) { inputs.append(contentsOf: Array("\(line)\n".utf8)) }
        for executable in compilerExecutables(command) {
            guard let identity = FileIdentity(of: executable) else { return nil }
            add("compiler \(executable) \(identity)")
        }
        for argument in arguments { add("argument \(argument.utf8.count) \(argument)") }
        for file in files {
            guard let bytes = try? Data(contentsOf: file) else { return nil }
            add("source \(file.path) \(bytes.count)")
            inputs.append(bytes)
        }
        if let modulesFolder {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: modulesFolder)) ?? []
            for name in names.sorted() where name.hasSuffix(".swiftmodule") {
                guard let identity = FileIdentity(of: "\(modulesFolder)/\(name)") else { return nil }
                add("module \(name) \(identity)")
            }
        }
        return inputs
    }

    /// The executables a compile runs: the driver (symbolic links resolved) and, beside it, the
    /// frontend that does the work.
    private static func compilerExecutables(_ command: [String]) -> [String] {
        let driver = URL(fileURLWithPath: command[0]).resolvingSymlinksInPath()
        let frontend = driver.deletingLastPathComponent().appendingPathComponent("swift-frontend").path
        return [command[0], driver.path] + (FileManager.default.fileExists(atPath: frontend) ? [frontend] : [])
    }

    /// The stored run of a compile that read exactly `inputs`, if there is one. Using an entry
    /// makes it the newest, so the entries in use are the ones kept.
    func run(for inputs: Data) -> SwiftCompiler.Run? {
        let url = entryURL(for: inputs)
        guard let data = try? Data(contentsOf: url),
            let entry = try? JSONDecoder().decode(Entry.self, from: data), entry.inputs == inputs
        else { return nil }
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: url.path)
        return SwiftCompiler.Run(status: entry.status, output: entry.output)
    }

    /// Stores `run` as the outcome of a compile that read `inputs`. Failing to write costs
    /// only a compile later, so errors are ignored.
    func save(_ run: SwiftCompiler.Run, for inputs: Data) {
        guard let data = try? JSONEncoder().encode(Entry(inputs: inputs, status: run.status, output: run.output))
        else { return }
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Written whole under a name of its own, then renamed: a process reading at the same
        // time sees the old entry or the new one, never half of one.
        let partial = folder.appendingPathComponent(".\(UUID().uuidString).partial")
        guard (try? data.write(to: partial)) != nil else { return }
        let entry = entryURL(for: inputs)
        if rename(partial.path, entry.path) != 0 { try? FileManager.default.removeItem(at: partial) }
        removeOldest()
    }

    /// Keeps the `capacity` entries written or used last.
    private func removeOldest() {
        let keys: [URLResourceKey] = [.contentModificationDateKey]
        guard
            let entries = try? FileManager.default.contentsOfDirectory(
                at: folder, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles]),
            entries.count > capacity
        else { return }
        let newestFirst = entries.sorted {
            let first = (try? $0.resourceValues(forKeys: Set(keys)).contentModificationDate) ?? .distantPast
            let second = (try? $1.resourceValues(forKeys: Set(keys)).contentModificationDate) ?? .distantPast
            return first > second
        }
        for old in newestFirst.dropFirst(capacity) { try? FileManager.default.removeItem(at: old) }
    }

    /// An entry's file: named by a hash of its inputs, which only finds it; the inputs
    /// themselves, stored in it, decide whether it is used.
    private func entryURL(for inputs: Data) -> URL {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a, 64 bits
        for byte in inputs {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return folder.appendingPathComponent(String(hash, radix: 16) + ".json")
    }

    private struct Entry: Codable {
        let inputs: Data
        let status: Int32
        let output: String
    }
}

/// What tells one version of a file from another without reading it: its size, modification
/// time and inode.
private struct FileIdentity: CustomStringConvertible {
    let size: Int
    let modified: Double
    let inode: Int

    init?(of path: String) {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = (attributes[.size] as? NSNumber)?.intValue,
            let modified = attributes[.modificationDate] as? Date,
            let inode = (attributes[.systemFileNumber] as? NSNumber)?.intValue
        else { return nil }
        self.size = size
        self.modified = modified.timeIntervalSinceReferenceDate
        self.inode = inode
    }

    var description: String { "\(size) \(modified.bitPattern) \(inode)" }
}
