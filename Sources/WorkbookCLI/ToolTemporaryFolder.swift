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
public struct ToolTemporaryFolder: Sendable {
    /// The folder, `<scratch>/workbook-tmp/run-<pid>-<random>`.
    public let url: URL

    /// Where the run folders go, relative to the package root.
    public static func parent(scratchPath: String) -> String { scratchPath + "/workbook-tmp" }

    /// Makes a fresh folder, first removing those of tools that are no longer running
    /// (a tool killed with SIGKILL had no chance to).
    public static func make(in layout: PackageLayout, scratchPath: String) -> ToolTemporaryFolder {
        let parent = layout.url(parent(scratchPath: scratchPath))
        let fileManager = FileManager.default
        for name in (try? fileManager.contentsOfDirectory(atPath: parent.path)) ?? [] {
            let fields = name.split(separator: "-")
            guard fields.count >= 3, fields[0] == "run", let pid = pid_t(fields[1]) else { continue }
            if pid != getpid(), kill(pid, 0) != 0, errno == ESRCH {
                try? fileManager.removeItem(at: parent.appendingPathComponent(name))
            }
        }
        let url = parent.appendingPathComponent("run-\(getpid())-\(UUID().uuidString.prefix(8))")
        try? fileManager.createDirectory(at: url, withIntermediateDirectories: true)
        Interrupts.shared.removeOnSignal(url)
        return ToolTemporaryFolder(url: url)
    }

    /// The environment for a child: `environment` with TMPDIR set to this folder.
    public func environment(_ environment: [String: String]) -> [String: String] {
        var copy = environment
        copy["TMPDIR"] = url.path
        return copy
    }

    /// Removes the folder and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
        Interrupts.shared.forget(url)
    }
}
