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
        /// Chapter folder → where its original came from, for each chapter whose exercise in the
        /// checkout differs from its original (a teacher's solved copy, say).
        public var restored: [String: String] = [:]
    }

    /// Writes the student edition of `layout` into `destination`, which must be new or empty.
    ///
    /// Every exercise is its recorded original, taken from the same `sources` as `reset` (git
    /// history, then a `Pristine/` copy), never from the working copy, which may hold the
    /// teacher's solved version. Refused while the tests, the shared instruments or
    /// `Package.swift` differ from `Chapters/test-hashes.json`: the students would see every
    /// chapter as "tests modified".
    public static func write(
        from layout: PackageLayout, to destination: URL, originals sources: [any ExerciseOriginals]? = nil
    ) throws -> Summary {
        let fileManager = FileManager.default
        let destination = destination.standardizedFileURL
        if let existing = try? fileManager.contentsOfDirectory(atPath: destination.path), !existing.isEmpty {
            throw Refusal(description: "student-edition: \(destination.path) is not empty; give a new or empty folder")
        }
        let manifest = try packageManifest(
            from: String(contentsOf: layout.url("Package.swift"), encoding: .utf8))
        let curriculum = try layout.loadCurriculum()
        let record = try TestHashes.load(from: layout)
        if let record {
            let report = record.compare(with: TestHashes.compute(for: curriculum, in: layout))
            if !report.isClean {
                throw Refusal(
                    description: "student-edition: these files differ from \(PackageLayout.hashesPath), so the "
                        + "students would see every affected chapter as 'tests modified':\n"
                        + report.problems.map { "  \($0)\n" }.joined()
                        + "Put them back, or record them with `swift run workbook hashes --update`.")
            }
        }
        let originals = try exerciseOriginals(
            of: curriculum, in: layout, sources: sources ?? ExerciseReset.sources(for: layout), record: record)
        try fileManager.createDirectory(at: destination, withIntermediateDirectories: true)

        func write(_ data: Data, to path: String) throws {
            let target = destination.appendingPathComponent(path)
            try fileManager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: target)
        }
        let exercisePaths = Set(curriculum.chapters.flatMap { TestHashes.exerciseFiles($0, in: layout) })
        var copied = 0
        for path in selectedFiles(in: layout, excluding: destination) where !exercisePaths.contains(path) {
            let target = destination.appendingPathComponent(path)
            try fileManager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try fileManager.copyItem(at: layout.url(path), to: target)
            copied += 1
        }
        try manifest.write(to: destination.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let editions = Catalog.loaded.compactMap { Language(code: $0.code) }.filter {
            $0 != .english && FileManager.default.fileExists(atPath: layout.url("README.\($0.code).md").path)
        }
        let teacherReadme = try? String(contentsOf: layout.url("README.md"), encoding: .utf8)
        try StudentReadme.render(curriculum, editions: editions, teacherReadme: teacherReadme).write(
            to: destination.appendingPathComponent("README.md"), atomically: true, encoding: .utf8)
        for edition in editions {
            // The edition's README as students get it: without what only the teacher's copy has.
            let name = "README.\(edition.code).md"
            let readme = try String(contentsOf: layout.url(name), encoding: .utf8)
            try StudentReadme.withoutTeacherOnlyParts(readme).write(
                to: destination.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try write(Data(StudentWorkflow.text.utf8), to: StudentWorkflow.path)
        if var record {
            // The edition's manifest is the original without its solutions: record that one.
            record.shared["Package.swift"] = SHA256.hex(Array(manifest.utf8))
            try record.write(to: PackageLayout(root: destination))
        }

        var pristine = 0
        var restored: [String: String] = [:]
        for chapter in curriculum.chapters {
            let (files, source) = originals[chapter.folder]!
            let folder = PackageLayout.exerciseFolder(chapter)
            for (path, data) in files {
                try write(data, to: path)
                try write(data, to: PackageLayout.pristineFolder + "/" + chapter.folder + path.dropFirst(folder.count))
                copied += 1
                pristine += 1
            }
            let current = TestHashes.exerciseFiles(chapter, in: layout)
            if Set(current) != Set(files.keys)
                || current.contains(where: { fileManager.contents(atPath: layout.url($0).path) != files[$0] })
            {
                restored[chapter.folder] = source
            }
        }
        return Summary(copiedFiles: copied, pristineFiles: pristine, restored: restored)
    }

    /// Chapter folder → its original exercise files and where they came from: the first of
    /// `sources` that has them, else the working copy if it matches the recorded hashes (or
    /// there is no record).
    static func exerciseOriginals(
        of curriculum: Curriculum, in layout: PackageLayout, sources: [any ExerciseOriginals], record: TestHashes?
    ) throws(Refusal) -> [String: (files: [String: Data], source: String)] {
        var result: [String: (files: [String: Data], source: String)] = [:]
        for chapter in curriculum.chapters {
            let found = sources.lazy.compactMap { source in source.files(of: chapter).map { (source.name, $0) } }.first
            if let (source, files) = found {
                result[chapter.folder] = (files, source)
                continue
            }
            let paths = TestHashes.exerciseFiles(chapter, in: layout)
            let current = TestHashes.hashes(of: paths, in: layout)
            // Without a record there is nothing to tell an original by: the working copy it is.
            if record == nil || record?.chapters[chapter.folder]?.exercise == current {
                var files: [String: Data] = [:]
                for path in paths { files[path] = FileManager.default.contents(atPath: layout.url(path).path) }
                result[chapter.folder] = (files, "the working copy")
                continue
            }
            throw Refusal(
                description: "student-edition: no original of chapter \(chapter.folder)'s exercise: this checkout has "
                    + "no git history for it and no \(PackageLayout.pristineFolder)/ copy, and its files differ from "
                    + "the recorded ones. Nothing was written. (If the exercise was changed on purpose, record it "
                    + "with `swift run workbook hashes --update`.)")
        }
        return result
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
