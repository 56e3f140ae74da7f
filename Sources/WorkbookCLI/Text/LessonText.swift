/// A failure message split into what went wrong and the README section it names.
/// Lessons end their first line with "— see '<section>' in Chapters/<folder>/README.md".
public struct LessonText: Equatable, Sendable {
    /// The message without the pointer to the README.
    public var text: String
    /// The README section the message names, if any.
    public var section: String?
    /// The README that has the section, as the message names it (for example
    /// `Chapters/01-Continuations/README.md`, or `README.md` for lessons about the workbook).
    public var reading: String?

    public init(text: String, section: String?, reading: String? = nil) {
        self.text = text
        self.section = section
        self.reading = reading
    }

    /// Splits `message`.
    public init(_ message: String) {
        let pattern = #/ — see '(?<section>.+?)' in (?<reading>\S*README\.md)/#
        if let match = message.firstMatch(of: pattern) {
            section = String(match.output.section)
            reading = String(match.output.reading)
            text = message.replacingCharacters(in: match.range, with: "")
        } else {
            text = message
        }
    }

    /// The messages without repeats: a message that another one extends is dropped.
    public static func distinct(_ messages: [String]) -> [String] {
        var kept: [String] = []
        for message in messages {
            if kept.contains(where: { $0.hasPrefix(message) }) { continue }
            kept.removeAll { message.hasPrefix($0) }
            kept.append(message)
        }
        return kept
    }

    /// Lessons with the same sentence (their first line) as one: the sentence once, with every
    /// one's details under it, in order. A test that records a lesson several times (once per
    /// scenario, say) shows it once.
    public static func merged(_ lessons: [LessonText]) -> [LessonText] {
        var result: [LessonText] = []
        for lesson in lessons {
            let lines = lesson.text.split(separator: "\n", omittingEmptySubsequences: false)
            let sentence = lines.first.map(String.init) ?? ""
            if let index = result.firstIndex(where: { $0.text.prefix { $0 != "\n" } == sentence }) {
                let details = lines.dropFirst().joined(separator: "\n")
                if !details.isEmpty { result[index].text += "\n" + details }
            } else {
                result.append(lesson)
            }
        }
        return result
    }
}
