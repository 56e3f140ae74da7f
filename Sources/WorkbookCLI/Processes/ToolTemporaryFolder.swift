import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The tool's own temporary folder for one run, inside the build folder: SwiftPM, the
/// compiler and the tests get it as TMPDIR, the tool keeps its own files there, and it is
/// removed afterwards. So a check, or a whole `watch` session, leaves nothing in the
/// system's temporary directory (SwiftPM leaves empty `TemporaryDirectory.*` folders in
/// whatever TMPDIR says, and interrupted exit tests leave `workbook-child-*` files).
///
/// SwiftPM also keeps its lock files in TMPDIR (`<path with / as _>.lock`): the lock that
/// stops two builds from sharing a scratch path, and those of its caches. So that the
/// tool's builds still wait for a `swift build` in another terminal, and the other way
/// round, the folder holds links to the lock files of the system's temporary directory;
/// the scratch path's own locks, where none exists there yet, link to a folder in the build
/// folder that every run of the tool shares.
public struct ToolTemporaryFolder: Sendable {
    /// The folder, `<scratch>/workbook-tmp/run-<pid>-<random>`.
    public let url: URL

    /// Where the run folders go (and the shared lock files), relative to the package root.
    public static func parent(scratchPath: String) -> String { scratchPath + "/workbook-tmp" }

    /// Makes a fresh folder, first removing those of tools that are no longer running
    /// (a tool killed with SIGKILL had no chance to).
    public static func make(
        in layout: PackageLayout, scratchPath: String,
        systemTemporaryDirectory: URL = FileManager.default.temporaryDirectory
    ) -> ToolTemporaryFolder {
        let parent = layout.url(parent(scratchPath: scratchPath))
        let fileManager = FileManager.default
        for name in (try? fileManager.contentsOfDirectory(atPath: parent.path)) ?? [] where name.hasPrefix("run-") {
            let fields = name.split(separator: "-")
            guard fields.count >= 3, fields[0] == "run", let pid = pid_t(fields[1]) else { continue }
            if pid != getpid(), kill(pid, 0) != 0, errno == ESRCH {
                try? fileManager.removeItem(at: parent.appendingPathComponent(name))
            }
        }
        let url = parent.appendingPathComponent("run-\(getpid())-\(UUID().uuidString.prefix(8))")
        try? fileManager.createDirectory(at: url, withIntermediateDirectories: true)
        Interrupts.shared.removeOnSignal(url)
        linkLocks(
            into: url, shared: parent.appendingPathComponent("locks"), system: systemTemporaryDirectory,
            guarding: [layout.url(scratchPath).path, layout.url(scratchPath + "/workspace-state.json").path],
            under: [layout.root.path] + swiftPMCacheFolders())
        return ToolTemporaryFolder(url: url)
    }

    /// The folders whose SwiftPM locks a build of this package can share with another build:
    /// the user's home (SwiftPM's caches and configuration live under it) and, if set, the
    /// XDG cache folder.
    static func swiftPMCacheFolders() -> [String] {
        let environment = ProcessInfo.processInfo.environment
        return [FileManager.default.homeDirectoryForCurrentUser.path, environment["XDG_CACHE_HOME"]].compactMap {
            $0.flatMap { $0.isEmpty ? nil : $0 }
        }
    }

    /// Links SwiftPM's lock files into `folder` (see the type's description): those of the
    /// system's temporary directory that lock a path under one of `folders` (a lock's name is
    /// its path with `/` as `_`), and those of `paths`. The locks of other packages' builds,
    /// which a machine gathers by the hundred, are left out: linking each cost a check time.
    static func linkLocks(into folder: URL, shared: URL, system: URL, guarding paths: [String], under folders: [String])
    {
        let fileManager = FileManager.default
        let prefixes = folders.map { lockName(of: $0).dropLast(".lock".count) + "_" }
        let existing = lockFileNames(in: system.path).filter { name in prefixes.contains { name.hasPrefix($0) } }
        for name in existing {
            try? fileManager.createSymbolicLink(
                at: folder.appendingPathComponent(name), withDestinationURL: system.appendingPathComponent(name))
        }
        try? fileManager.createDirectory(at: shared, withIntermediateDirectories: true)
        for path in paths {
            let name = lockName(of: path)
            guard !existing.contains(name) else { continue }
            // SwiftPM creates the file through the link on first use, in the shared folder.
            try? fileManager.createSymbolicLink(
                at: folder.appendingPathComponent(name), withDestinationURL: shared.appendingPathComponent(name))
        }
    }

    /// The name of the lock SwiftPM keeps in the temporary directory for `path`.
    static func lockName(of path: String) -> String { path.replacingOccurrences(of: "/", with: "_") + ".lock" }

    /// SwiftPM's lock files in `folder`: the names that start with `_` and end in `.lock`.
    /// Read with `readdir`, and a name is made a string only when it starts with `_`: the
    /// system's temporary directory can hold tens of thousands of entries (the compiler
    /// leaves a folder there for each build it runs), and a string for each of them cost a
    /// check a quarter of a second on a machine that had 40,000.
    static func lockFileNames(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            if let name = FileTree.entryName(entry, startingWith: UInt8(ascii: "_")), name.hasSuffix(".lock") {
                names.append(name)
            }
        }
        return names
    }

    /// The environment for a child: `environment` with TMPDIR set to this folder.
    public func environment(_ environment: [String: String]) -> [String: String] {
        var copy = environment
        copy["TMPDIR"] = url.path
        return copy
    }

    /// Removes the folder and everything in it.
    public func remove() {
        Self.remove(url)
        Interrupts.shared.forget(url)
    }

    /// Removes `folder`, trying again for up to about half a second while it is still there: a
    /// process that was just ended (a compiler SwiftPM started) may still add a file while the
    /// folder is being emptied, and then the removal fails. The success path pays nothing.
    static func remove(_ folder: URL) {
        let fileManager = FileManager.default
        for attempt in 0..<25 {
            try? fileManager.removeItem(at: folder)
            guard fileManager.fileExists(atPath: folder.path) else { return }
            if attempt < 24 { usleep(20_000) }
        }
    }
}
