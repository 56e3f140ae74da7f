import Foundation
import WorkbookCurriculum

/// Where things are in a workbook checkout (the full workbook or a student edition).
public struct PackageLayout: Sendable {
    /// The package root: the folder holding `Package.swift` and `Chapters/curriculum.json`.
    public let root: URL

    public init(root: URL) { self.root = root.standardizedFileURL }

    /// The nearest folder at or above `start` that holds a workbook.
    public static func find(from start: URL) -> PackageLayout? {
        var folder = start.standardizedFileURL
        while true {
            let manifest = folder.appendingPathComponent(Curriculum.relativePath).path
            let package = folder.appendingPathComponent("Package.swift").path
            if FileManager.default.fileExists(atPath: manifest), FileManager.default.fileExists(atPath: package) {
                return PackageLayout(root: folder)
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return nil }
            folder = parent
        }
    }

    /// The learner build's folder: the package default, shared with `swift test` and `swift run`.
    /// (`scripts/verify` keeps its own scratch paths.)
    public static let learnerScratchPath = ".build"
    /// The tool's own state (hints, backups), ignored by git.
    public static let stateFolder = ".workbook"
    /// The recorded hashes of the tests, next to the curriculum manifest.
    public static let hashesPath = "Chapters/test-hashes.json"
    /// The shared instruments whose hashes are recorded: editing them could make any test pass.
    public static let sharedInstrumentFolders = ["Sources/WorkbookTesting"] + simulatedWorldFolders
    /// What the exercises call: the simulated world, and the legacy SDK chapter 15 imports.
    public static let simulatedWorldFolders = ["Sources/SimulatedWorld", "Sources/LegacyCameraSDK"]
    /// Single files fingerprinted with the instruments: the manifest decides what the tests are
    /// built against (a default trait could swap every exercise for its solution).
    public static let fingerprintedFiles = ["Package.swift"]
    /// Where a student edition keeps the original exercises, for `reset` without git.
    public static let pristineFolder = "Pristine"

    public func url(_ relativePath: String) -> URL { root.appendingPathComponent(relativePath) }

    public func loadCurriculum() throws -> Curriculum { try Curriculum.load(packageRoot: root) }

    public var stateURL: URL { url(Self.stateFolder) }

    /// Whether this checkout carries the solutions (the full workbook) or not (a student edition).
    public var hasSolutions: Bool {
        FileManager.default.fileExists(atPath: url("Solutions").path)
    }

    /// Whether `Package.swift` declares package traits (the full workbook's `Solutions`). SwiftPM
    /// refuses `--disable-default-traits` for a package that declares none (a student edition).
    public var declaresTraits: Bool {
        guard let manifest = try? String(contentsOf: url("Package.swift"), encoding: .utf8) else { return false }
        return manifest.split(separator: "\n").contains { line in
            !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") && line.firstMatch(of: #/\btraits\s*:/#) != nil
        }
    }

    /// The package's name, as `Package.swift` gives it (`Package(name: "…")`), or nil if it can't be read.
    public var packageName: String? {
        guard let manifest = try? String(contentsOf: url("Package.swift"), encoding: .utf8),
            let match = manifest.firstMatch(of: #/\bPackage\(\s*name:\s*"(?<name>[^"]+)"/#)
        else { return nil }
        return String(match.name)
    }

    /// The product SwiftPM makes of all the test targets together: `<package name>PackageTests`.
    public var testProductName: String? { packageName.map { $0 + "PackageTests" } }

    /// The chapter's exercise folder, relative to the root.
    public static func exerciseFolder(_ chapter: Curriculum.Chapter) -> String { "Chapters/\(chapter.folder)" }

    /// `text` with the runtime's module-relative paths (`Ch01Continuations/DownloadImage.swift:20`,
    /// from `#fileID`) made relative to the package root (`Chapters/01-Continuations/DownloadImage.swift:20`),
    /// a path an editor or a terminal can open.
    public static func editorPaths(in text: String, chapters: [Curriculum.Chapter]) -> String {
        var result = text
        for chapter in chapters where result.contains(chapter.module + "/") {
            let module = NSRegularExpression.escapedPattern(for: chapter.module)
            result = result.replacingOccurrences(
                of: "(?<![\\w/.-])" + module + "/(?=[^\\s/]+\\.swift)", with: exerciseFolder(chapter) + "/",
                options: .regularExpression)
        }
        return result
    }
    /// The chapter's test folder, relative to the root.
    public static func testFolder(_ chapter: Curriculum.Chapter) -> String { "Tests/\(chapter.testTarget)" }
}

/// Regular files below a folder, as sorted paths relative to a root.
public enum FileTree {
    /// Every regular file under `folder` (relative to `root`), recursively, skipping hidden
    /// files, sorted. A missing folder has no files.
    ///
    /// It reads the folders with `readdir`, not `FileManager`'s enumerator: on Linux that looks
    /// up each file's owner in /etc/passwd, and the tool lists hundreds of files on every check.
    public static func files(in folder: String, root: URL) -> [String] {
        var found: [String] = []
        collect(root.appendingPathComponent(folder).path, as: folder, into: &found)
        return found.sorted()
    }

    /// The name of an entry `readdir` returned, read in place up to its NUL: glibc gives each
    /// entry only the bytes its name needs, so copying the whole `d_name` array can read past the
    /// end of the directory buffer, and crash now and then. With `first`, nil for a name that
    /// does not start with that byte, without making a string of it.
    static func entryName(_ entry: UnsafeMutablePointer<dirent>, startingWith first: UInt8? = nil) -> String? {
        withUnsafePointer(to: &entry.pointee.d_name) { array -> String? in
            let characters = UnsafeRawPointer(array).assumingMemoryBound(to: UInt8.self)
            if let first, characters[0] != first { return nil }
            return String(cString: characters)
        }
    }

    private static func collect(_ path: String, as relative: String, into found: inout [String]) {
        guard let directory = opendir(path) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            guard let name = entryName(entry), !name.hasPrefix(".") else { continue }  // hidden, "." and ".."
            let full = path + "/" + name
            var kind = Int32(entry.pointee.d_type)
            if kind == Int32(DT_UNKNOWN) || kind == Int32(DT_LNK) {
                // A link counts for the regular file it names; a link to a folder is not followed.
                var info = stat()
                guard stat(full, &info) == 0 else { continue }
                let type = info.st_mode & S_IFMT
                if type == S_IFREG {
                    kind = Int32(DT_REG)
                } else {
                    kind = type == S_IFDIR && kind == Int32(DT_UNKNOWN) ? Int32(DT_DIR) : 0
                }
            }
            if kind == Int32(DT_DIR) {
                collect(full, as: relative + "/" + name, into: &found)
            } else if kind == Int32(DT_REG) {
                found.append(relative + "/" + name)
            }
        }
    }

    /// `url`'s path below `base`, with `/` separators.
    public static func relativePath(of url: URL, under base: URL) -> String {
        let full = url.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        let prefix = base.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        return full.dropFirst(prefix.count).joined(separator: "/")
    }
}
