import Testing

extension Lesson {
    /// The teaching message followed by `detail` (what was observed), as a comment for
    /// `#expect(…, lesson.comment(detail))`.
    public func comment(_ detail: String) -> Comment {
        Comment(rawValue: "\(message)\n\(detail)")
    }
}
