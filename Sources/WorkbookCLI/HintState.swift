import Foundation
import WorkbookCurriculum

/// Which hints the learner has seen, kept in `.workbook/hints.json` (ignored by git).
public struct HintState: Codable, Equatable, Sendable {
    /// Chapter folder → how many hints have been shown, counting from the first.
    public var shown: [String: Int] = [:]

    public init(shown: [String: Int] = [:]) { self.shown = shown }

    public static let fileName = "hints.json"

    /// Picks the hint to show and records it: hint `number` if given, otherwise the one after
    /// the last shown, staying on the last hint once all were shown. Returns the 1-based number.
    public mutating func nextHint(for chapter: Curriculum.Chapter, number: Int? = nil) -> Int? {
        guard !chapter.hints.isEmpty else { return nil }
        let seen = shown[chapter.folder] ?? 0
        let chosen = min(number ?? (seen + 1), chapter.hints.count)
        shown[chapter.folder] = max(seen, chosen)
        return chosen
    }

    /// The text `hint` prints for hint `number`.
    public static func render(_ chapter: Curriculum.Chapter, number: Int, requested: Int? = nil) -> String {
        let prefix = String(format: "%02d", chapter.number)
        var text = ""
        if let requested, requested > chapter.hints.count {
            text += "Chapter \(prefix) has \(chapter.hints.count) hints; here is the last.\n"
        }
        text += "Hint \(number) of \(chapter.hints.count) for chapter \(prefix): \(chapter.hints[number - 1])\n"
        if number < chapter.hints.count {
            text += "  (next: swift run workbook hint \(prefix))\n"
        } else {
            text += "  That was the last hint. The chapter's README has the full walk-through under \"Hints\".\n"
        }
        return text
    }

    /// Reads the state in `folder`, or an empty state if there is none yet (or it is unreadable).
    public static func load(from folder: URL) -> HintState {
        let url = folder.appendingPathComponent(fileName)
        guard let data = try? Data(contentsOf: url) else { return HintState() }
        return (try? JSONDecoder().decode(HintState.self, from: data)) ?? HintState()
    }

    /// Writes the state into `folder`, creating it if needed.
    public func save(to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: folder.appendingPathComponent(Self.fileName), options: .atomic)
    }
}
