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
    public static func files(in folder: String, root: URL) -> [String] {
        let base = root.appendingPathComponent(folder)
        guard
            let enumerator = FileManager.default.enumerator(
                at: base, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return [] }
        var found: [String] = []
        for case let url as URL in enumerator {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            found.append(folder + "/" + relativePath(of: url, under: base))
        }
        return found.sorted()
    }

    /// `url`'s path below `base`, with `/` separators.
    public static func relativePath(of url: URL, under base: URL) -> String {
        let full = url.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        let prefix = base.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        return full.dropFirst(prefix.count).joined(separator: "/")
    }
}
