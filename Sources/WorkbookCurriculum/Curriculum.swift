import Foundation

/// The curriculum manifest, `Chapters/curriculum.json`: the chapters in order, with what
/// each teaches and how to run it. Tests keep it consistent with the folders, and the
/// `workbook` tool reads it.
public struct Curriculum: Codable, Sendable, Equatable {
    /// Where the manifest lives, relative to the package root.
    public static let relativePath = "Chapters/curriculum.json"

    public var title: String
    public var chapters: [Chapter]

    public init(title: String, chapters: [Chapter]) {
        self.title = title
        self.chapters = chapters
    }

    /// One chapter: an exercise module, its solution twin and its test target.
    public struct Chapter: Codable, Sendable, Equatable {
        /// 1-based position in the workbook.
        public var number: Int
        /// The folder under `Chapters/` and `Solutions/`, for example `01-Continuations`.
        public var folder: String
        public var title: String
        /// The exercise module, for example `Ch01Continuations`.
        public var module: String
        /// The concepts the chapter teaches, a few words each.
        public var concepts: [String]
        /// The material the chapter reproduces, cited as further reading.
        public var sources: [Source]
        /// Progressive hints, gentlest first.
        public var hints: [String]
        /// The command a learner runs for this chapter.
        public var testCommand: String
        /// For a chapter about shared state: the README section on its data races, which
        /// `workbook check NN --race` points to (and `check` suggests once the chapter passes).
        public var raceSection: String?

        /// The solution module: the exercise module's name plus `Solution`.
        public var solutionModule: String { module + "Solution" }
        /// The test target: the exercise module's name plus `Tests`.
        public var testTarget: String { module + "Tests" }
        /// The chapter's reading, relative to the package root.
        public var readmePath: String { "Chapters/\(folder)/README.md" }
    }

    /// A cited article, talk or proposal.
    public struct Source: Codable, Sendable, Equatable {
        public var title: String
        public var url: String
    }

    /// Decodes the manifest at `url`.
    public static func load(from url: URL) throws -> Curriculum {
        try JSONDecoder().decode(Curriculum.self, from: Data(contentsOf: url))
    }

    /// Decodes the manifest of the package rooted at `packageRoot`.
    public static func load(packageRoot: URL) throws -> Curriculum {
        try load(from: packageRoot.appendingPathComponent(relativePath))
    }

    /// Finds a chapter by number (`1`, `01`), folder (`01-Continuations`) or module name
    /// (`Ch01Continuations`), ignoring case.
    public func chapter(named name: String) -> Chapter? {
        let key = name.lowercased()
        return chapters.first { chapter in
            if let number = Int(key), number == chapter.number { return true }
            return chapter.folder.lowercased() == key || chapter.module.lowercased() == key
        }
    }
}
