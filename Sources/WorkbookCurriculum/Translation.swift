import Foundation

/// A second language's texts for the workbook, read from the catalogs next to the English ones:
/// each chapter's `Chapters/<folder>/lessons.<code>.json` (the chapter's title, concepts, hints
/// and lessons) and the workbook-wide `Chapters/lessons.<code>.json` (the lessons every chapter
/// can record, each with the heading of the top-level reading that teaches it).
public struct Translation: Sendable, Equatable {
    /// The language code in the file names: `ko`.
    public var code: String
    /// Chapter folder → that chapter's catalog.
    public var chapters: [String: ChapterCatalog]
    /// The lessons about the workbook itself (their reading is the top-level README).
    public var workbookLessons: [String: LessonText]

    public init(code: String, chapters: [String: ChapterCatalog] = [:], workbookLessons: [String: LessonText] = [:]) {
        self.code = code
        self.chapters = chapters
        self.workbookLessons = workbookLessons
    }

    /// One lesson's text: the bug phrase and the explanation, and for a workbook-wide lesson the
    /// heading of the translated top-level reading.
    public struct LessonText: Codable, Sendable, Equatable {
        public var bug: String
        public var explanation: String
        public var section: String?

        public init(bug: String, explanation: String, section: String? = nil) {
            self.bug = bug
            self.explanation = explanation
            self.section = section
        }
    }

    /// A chapter's `lessons.<code>.json`.
    public struct ChapterCatalog: Codable, Sendable, Equatable {
        public var chapter: String?
        public var curriculum: CurriculumText?
        /// The English bug phrase (with `\(name)` placeholders as in the test source) → its text.
        public var lessons: [String: LessonText]
        /// A test's English display name, as in its `@Test("…")` → the name in the language.
        public var tests: [String: String]
        /// A line of detail the chapter's tests write under a lesson (what they observed), as a
        /// template with `\(name)` placeholders as in the test source → the line in the language,
        /// with the same placeholders (`\(name|seconds)` and a particle filter format the value).
        public var details: [String: String]

        public init(
            chapter: String? = nil, curriculum: CurriculumText? = nil, lessons: [String: LessonText] = [:],
            tests: [String: String] = [:], details: [String: String] = [:]
        ) {
            self.chapter = chapter
            self.curriculum = curriculum
            self.lessons = lessons
            self.tests = tests
            self.details = details
        }

        enum CodingKeys: String, CodingKey { case chapter, curriculum, lessons, tests, details }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            chapter = try container.decodeIfPresent(String.self, forKey: .chapter)
            curriculum = try container.decodeIfPresent(CurriculumText.self, forKey: .curriculum)
            lessons = try container.decodeIfPresent([String: LessonText].self, forKey: .lessons) ?? [:]
            tests = try container.decodeIfPresent([String: String].self, forKey: .tests) ?? [:]
            details = try container.decodeIfPresent([String: String].self, forKey: .details) ?? [:]
        }
    }

    /// The chapter's manifest fields in the language.
    public struct CurriculumText: Codable, Sendable, Equatable {
        public var title: String?
        public var concepts: [String]?
        public var hints: [String]?

        public init(title: String? = nil, concepts: [String]? = nil, hints: [String]? = nil) {
            self.title = title
            self.concepts = concepts
            self.hints = hints
        }
    }

    /// The catalog file of one chapter, relative to the package root.
    public static func chapterCatalogPath(_ folder: String, code: String) -> String {
        "Chapters/\(folder)/lessons.\(code).json"
    }

    /// The workbook-wide catalog, relative to the package root.
    public static func workbookCatalogPath(code: String) -> String { "Chapters/lessons.\(code).json" }

    /// Reads every catalog of `code` the package has. A missing file is no catalog; an
    /// unreadable one is an error (a learner should hear that a catalog is broken).
    public static func load(code: String, packageRoot: URL, curriculum: Curriculum) throws -> Translation {
        var translation = Translation(code: code)
        for chapter in curriculum.chapters {
            let url = packageRoot.appendingPathComponent(chapterCatalogPath(chapter.folder, code: code))
            guard let data = try? Data(contentsOf: url) else { continue }
            translation.chapters[chapter.folder] = try JSONDecoder().decode(ChapterCatalog.self, from: data)
        }
        let url = packageRoot.appendingPathComponent(workbookCatalogPath(code: code))
        if let data = try? Data(contentsOf: url) {
            translation.workbookLessons = try decodeWorkbookLessons(data)
        }
        return translation
    }

    /// The workbook-wide catalog: a `lessons` map as in a chapter's catalog, or that map alone.
    public static func decodeWorkbookLessons(_ data: Data) throws -> [String: LessonText] {
        if let catalog = try? JSONDecoder().decode(ChapterCatalog.self, from: data), !catalog.lessons.isEmpty {
            return catalog.lessons
        }
        if let lessons = try? JSONDecoder().decode([String: LessonText].self, from: data) { return lessons }
        return try JSONDecoder().decode(ChapterCatalog.self, from: data).lessons
    }

    /// The curriculum with each chapter's title, concepts and hints in this language where the
    /// catalog has them (a field without a text, or with a different count, stays English), and
    /// each chapter's reading `README.<code>.md`. Lesson hints (which hint fits which failure)
    /// are unchanged: failures are matched in English.
    public func apply(to curriculum: Curriculum) -> Curriculum {
        var copy = curriculum
        for index in copy.chapters.indices {
            var chapter = copy.chapters[index]
            chapter.readingFile = "README.\(code).md"
            if let text = chapters[chapter.folder]?.curriculum {
                if let title = text.title, !title.isEmpty { chapter.title = title }
                if let concepts = text.concepts, concepts.count == chapter.concepts.count {
                    chapter.concepts = concepts
                }
                if let hints = text.hints, hints.count == chapter.hints.count { chapter.hints = hints }
            }
            copy.chapters[index] = chapter
        }
        return copy
    }
}
