import Foundation
import WorkbookCurriculum

/// `workbook student-edition <dir>`: the workbook without its solutions.
public enum StudentEdition {
    /// Top-level entries that stay behind: the solutions and the teacher's tooling, build
    /// output, local state, and any old pristine copy (a fresh one is written).
    public static let leftOut: Set<String> = [
        "Solutions", "scripts", ".ci", PackageLayout.pristineFolder,
        ".git", ".swiftpm", PackageLayout.stateFolder, "Package.resolved",
    ]

    /// Whether the file or folder at `relativePath` (from the package root) goes into the copy.
    public static func includes(_ relativePath: String) -> Bool {
        let components = relativePath.split(separator: "/")
        guard let top = components.first.map(String.init) else { return false }
        if top.hasPrefix(".build") || leftOut.contains(top) { return false }
        return !components.contains(".DS_Store")
    }

    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// The copy's `Package.swift`: the original without the lines between `BEGIN SOLUTIONS`
    /// and `END SOLUTIONS` markers. Refuses a result that still names a solution.
    public static func packageManifest(from original: String) throws(Refusal) -> String {
        var kept: [Substring] = [
            "// Student edition, written by `workbook student-edition`: the workbook without its solutions."
        ]
        var skipping = false
        for line in original.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.contains("BEGIN SOLUTIONS") {
                if skipping {
                    throw Refusal(description: "Package.swift: BEGIN SOLUTIONS inside another BEGIN SOLUTIONS")
                }
                skipping = true
            } else if line.contains("END SOLUTIONS") {
                if !skipping { throw Refusal(description: "Package.swift: END SOLUTIONS without BEGIN SOLUTIONS") }
                skipping = false
            } else if !skipping, !line.hasPrefix("// Student edition, written by") {
                kept.append(line)
            }
        }
        if skipping { throw Refusal(description: "Package.swift: BEGIN SOLUTIONS without END SOLUTIONS") }
        let result = kept.joined(separator: "\n")
        if let line = result.split(separator: "\n").first(where: { $0.contains("Solution") }) {
            throw Refusal(
                description:
                    "Package.swift names a solution outside the SOLUTIONS markers: \(line.trimmingCharacters(in: .whitespaces))"
            )
        }
        return result
    }

    /// What was written.
    public struct Summary: Equatable, Sendable {
        public var copiedFiles: Int
        public var pristineFiles: Int
    }

    /// Writes the student edition of `layout` into `destination`, which must be new or empty.
    public static func write(from layout: PackageLayout, to destination: URL) throws -> Summary {
        let fileManager = FileManager.default
        let destination = destination.standardizedFileURL
        if let existing = try? fileManager.contentsOfDirectory(atPath: destination.path), !existing.isEmpty {
            throw Refusal(description: "student-edition: \(destination.path) is not empty; give a new or empty folder")
        }
        let manifest = try packageManifest(
            from: String(contentsOf: layout.url("Package.swift"), encoding: .utf8))
        let curriculum = try layout.loadCurriculum()
        try fileManager.createDirectory(at: destination, withIntermediateDirectories: true)

        var copied = 0
        for path in selectedFiles(in: layout, excluding: destination) {
            let target = destination.appendingPathComponent(path)
            try fileManager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try fileManager.copyItem(at: layout.url(path), to: target)
            copied += 1
        }
        try manifest.write(to: destination.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)

        var pristine = 0
        for chapter in curriculum.chapters {
            for path in TestHashes.exerciseFiles(chapter, in: layout) {
                let relative = path.dropFirst(PackageLayout.exerciseFolder(chapter).count)
                let target = destination.appendingPathComponent(
                    PackageLayout.pristineFolder + "/" + chapter.folder + relative)
                try fileManager.createDirectory(
                    at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try fileManager.copyItem(at: layout.url(path), to: target)
                pristine += 1
            }
        }
        return Summary(copiedFiles: copied, pristineFiles: pristine)
    }

    /// The files the copy takes, relative to the root, sorted; never anything inside `excluded`
    /// or inside another package.
    public static func selectedFiles(in layout: PackageLayout, excluding excluded: URL? = nil) -> [String] {
        guard
            let enumerator = FileManager.default.enumerator(
                at: layout.root, includingPropertiesForKeys: [.isRegularFileKey, .isDirectoryKey])
        else { return [] }
        let excludedPath = excluded?.standardizedFileURL.resolvingSymlinksInPath().path
        var files: [String] = []
        for case let url as URL in enumerator {
            let relative = FileTree.relativePath(of: url, under: layout.root)
            let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .isDirectoryKey])
            let isDestination = url.standardizedFileURL.resolvingSymlinksInPath().path == excludedPath
            // A folder with its own Package.swift (say, an earlier student edition) is another package.
            let isOtherPackage =
                values?.isDirectory == true
                && FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path)
            if !includes(relative) || isDestination || isOtherPackage {
                if values?.isDirectory == true { enumerator.skipDescendants() }
                continue
            }
            if values?.isRegularFile == true { files.append(relative) }
        }
        return files.sorted()
    }
}
