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
        /// For each hint, the lesson it is about (the bug phrase of a failure message), if it
        /// names one: `check` then shows the hint that fits the failure. In the manifest a hint is
        /// a string, or `{ "text": "…", "lesson": "…" }`.
        public var hintLessons: [String?]
        /// The command a learner runs for this chapter.
        public var testCommand: String
        /// For a chapter about shared state: the README section on its data races, which
        /// `workbook check NN --race` points to (and `check` suggests once the chapter passes).
        public var raceSection: String?
        /// The file name of the chapter's reading in its folder: `README.md`, or a translation's
        /// `README.ko.md` (see ``Translation/apply(to:)``). Not part of the manifest.
        public var readingFile = "README.md"

        enum CodingKeys: String, CodingKey {
            case number, folder, title, module, concepts, sources, hints, testCommand, raceSection
        }

        /// A hint as the manifest writes it: a string, or an object naming its lesson.
        struct Hint: Codable {
            var text: String
            var lesson: String?

            init(text: String, lesson: String?) {
                self.text = text
                self.lesson = lesson
            }

            init(from decoder: any Decoder) throws {
                if let text = try? decoder.singleValueContainer().decode(String.self) {
                    self.init(text: text, lesson: nil)
                    return
                }
                let container = try decoder.container(keyedBy: Keys.self)
                try self.init(
                    text: container.decode(String.self, forKey: .text),
                    lesson: container.decodeIfPresent(String.self, forKey: .lesson))
            }

            func encode(to encoder: any Encoder) throws {
                guard let lesson else {
                    var container = encoder.singleValueContainer()
                    try container.encode(text)
                    return
                }
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(text, forKey: .text)
                try container.encode(lesson, forKey: .lesson)
            }

            enum Keys: String, CodingKey { case text, lesson }
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            number = try container.decode(Int.self, forKey: .number)
            folder = try container.decode(String.self, forKey: .folder)
            title = try container.decode(String.self, forKey: .title)
            module = try container.decode(String.self, forKey: .module)
            concepts = try container.decode([String].self, forKey: .concepts)
            sources = try container.decode([Source].self, forKey: .sources)
            let hints = try container.decode([Hint].self, forKey: .hints)
            self.hints = hints.map(\.text)
            hintLessons = hints.map(\.lesson)
            testCommand = try container.decode(String.self, forKey: .testCommand)
            raceSection = try container.decodeIfPresent(String.self, forKey: .raceSection)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(number, forKey: .number)
            try container.encode(folder, forKey: .folder)
            try container.encode(title, forKey: .title)
            try container.encode(module, forKey: .module)
            try container.encode(concepts, forKey: .concepts)
            try container.encode(sources, forKey: .sources)
            let lessons = hints.indices.map { $0 < hintLessons.count ? hintLessons[$0] : nil }
            try container.encode(zip(hints, lessons).map { Hint(text: $0, lesson: $1) }, forKey: .hints)
            try container.encode(testCommand, forKey: .testCommand)
            try container.encodeIfPresent(raceSection, forKey: .raceSection)
        }

        /// The solution module: the exercise module's name plus `Solution`.
        public var solutionModule: String { module + "Solution" }
        /// The test target: the exercise module's name plus `Tests`.
        public var testTarget: String { module + "Tests" }
        /// The chapter's reading, relative to the package root.
        public var readmePath: String { "Chapters/\(folder)/\(readingFile)" }
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
