import Testing

/// One bug a chapter teaches, phrased for the learner.
///
/// Every failure a chapter's tests record is a `Lesson`: what went wrong, in the
/// learner's terms, and which section of the chapter's README explains it.
/// The ``bug`` phrase doubles as the match key of the exercise check: a test marked
/// `.exposesBug(lesson)` must fail with an issue that carries this phrase.
public struct Lesson: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The chapter folder, for example `01-Continuations`.
    public let chapter: String
    /// A short, unique phrase naming the bug, for example
    /// "the continuation is never resumed on the error path".
    public let bug: String
    /// What the learner sees happen, and why it matters.
    public let explanation: String
    /// The heading in the chapter's README that teaches the fix.
    public let section: String
    /// The README that has ``section``, relative to the workbook's root, when it is not the
    /// chapter's own: the top-level `README.md` for lessons about the workbook itself.
    public let reading: String?

    public init(chapter: String, bug: String, explanation: String, section: String, reading: String? = nil) {
        self.chapter = chapter
        self.bug = bug
        self.explanation = explanation
        self.section = section
        self.reading = reading
    }

    /// The README that teaches the fix, relative to the workbook's root.
    public var readingPath: String { reading ?? "Chapters/\(chapter)/README.md" }

    /// The full teaching message: the bug, the explanation, and where to read.
    public var message: String {
        "\(bug): \(explanation) — see '\(section)' in \(readingPath)"
    }

    public var description: String { message }

    /// The message as a Swift Testing comment, for `#expect(…, lesson.comment)`.
    public var comment: Comment { Comment(rawValue: message) }

    /// Records this lesson as a test failure, adding `detail` (what was observed) when given.
    public func record(_ detail: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        let text = detail.map { "\(message)\n\($0)" } ?? message
        Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation)
    }

    /// Whether `issue` was recorded for this lesson.
    public func matches(_ issue: Issue) -> Bool {
        if issue.comments.contains(where: { $0.rawValue.contains(bug) }) { return true }
        if let error = issue.error, String(describing: error).contains(bug) { return true }
        return false
    }
}

/// A chapter's README, so its tests can phrase lessons without repeating the folder name.
public struct ChapterReading: Sendable {
    /// The chapter folder, for example `01-Continuations`.
    public let folder: String

    public init(_ folder: String) { self.folder = folder }

    /// A lesson taught by this chapter's README section `section`.
    public func lesson(_ bug: String, _ explanation: String, section: String) -> Lesson {
        Lesson(chapter: folder, bug: bug, explanation: explanation, section: section)
    }
}
