import Foundation
import WorkbookCurriculum

/// Which hints the learner has seen, kept in `.workbook/hints.json` (ignored by git).
public struct HintState: Codable, Equatable, Sendable {
    /// Chapter folder → how many hints have been shown, counting from the first.
    public var shown: [String: Int] = [:]
    /// Chapter folder → hints seen out of order (shown by `check` because they fit a failure).
    public var alsoSeen: [String: [Int]]?

    public init(shown: [String: Int] = [:]) { self.shown = shown }

    public static let fileName = "hints.json"

    /// Whether hint `number` (1-based) of `folder` was shown.
    public func hasSeen(_ number: Int, of folder: String) -> Bool {
        number <= (shown[folder] ?? 0) || (alsoSeen?[folder] ?? []).contains(number)
    }

    /// The first hint of `chapter` not yet shown, or nil when all were.
    public func firstUnseen(of chapter: Curriculum.Chapter) -> Int? {
        chapter.hints.indices.map { $0 + 1 }.first { !hasSeen($0, of: chapter.folder) }
    }

    /// Records hint `number` as seen.
    public mutating func markSeen(_ number: Int, of folder: String) {
        var extra = Set(alsoSeen?[folder] ?? [])
        extra.insert(number)
        var count = shown[folder] ?? 0
        while extra.contains(count + 1) { count += 1 }
        shown[folder] = count
        let remaining = extra.filter { $0 > count }.sorted()
        if remaining.isEmpty {
            alsoSeen?[folder] = nil
            if alsoSeen?.isEmpty == true { alsoSeen = nil }
        } else {
            alsoSeen = (alsoSeen ?? [:]).merging([folder: remaining]) { $1 }
        }
    }

    /// Picks the hint to show and records it: hint `number` if given, otherwise the first not
    /// yet shown, staying on the last hint once all were shown. Returns the 1-based number.
    public mutating func nextHint(for chapter: Curriculum.Chapter, number: Int? = nil) -> Int? {
        guard !chapter.hints.isEmpty else { return nil }
        let chosen = min(number ?? firstUnseen(of: chapter) ?? chapter.hints.count, chapter.hints.count)
        markSeen(chosen, of: chapter.folder)
        return chosen
    }

    /// The usage error for asking for hint `number` of a chapter that has no such hint, above
    /// its count or below 1 (exit 2, naming the range, like `hint 01 x`), or nil.
    public static func outOfRange(_ number: Int?, of chapter: Curriculum.Chapter) -> UsageError? {
        guard let number, !chapter.hints.isEmpty, !(1...chapter.hints.count).contains(number) else { return nil }
        let prefix = String(format: "%02d", chapter.number)
        let count = chapter.hints.count
        return UsageError(id: "usage.hintOutOfRange", ["chapter": prefix, "count": count, "number": number])
    }

    /// Picks the hint `check` shows beside the failures `messages`, and records it: the first
    /// hint about one of their lessons (one not yet seen, if any), otherwise the first hint not
    /// yet seen, otherwise the last.
    public mutating func hintForCheck(_ chapter: Curriculum.Chapter, failures messages: [String]) -> Int? {
        guard !chapter.hints.isEmpty else { return nil }
        let fitting = chapter.hintLessons.indices.filter { index in
            guard let lesson = chapter.hintLessons[index], !lesson.isEmpty else { return false }
            return messages.contains { $0.localizedCaseInsensitiveContains(lesson) }
        }.map { $0 + 1 }.filter { $0 <= chapter.hints.count }
        let chosen =
            fitting.first { !hasSeen($0, of: chapter.folder) } ?? fitting.first ?? firstUnseen(of: chapter)
            ?? chapter.hints.count
        markSeen(chosen, of: chapter.folder)
        return chosen
    }

    /// Whether the chapter's README has a "Hints" section.
    public static func readmeHasHints(_ readme: String?, strings: Strings = .english) -> Bool {
        readme?.split(separator: "\n").contains { line in
            guard line.hasPrefix("#") else { return false }
            return line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces) == strings.hintsHeading
        } ?? false
    }

    /// The text `hint` prints for hint `number`. `readmeHasHints`: whether the chapter's README
    /// has a "Hints" section to point to after the last hint.
    public static func render(
        _ chapter: Curriculum.Chapter, number: Int, readmeHasHints: Bool = false,
        width: Int? = nil, strings: Strings = .english
    ) -> String {
        let prefix = String(format: "%02d", chapter.number)
        var text =
            TextWrap.wrap(
                strings.hintLine(number, chapter.hints.count, prefix, chapter.hints[number - 1]),
                width: width, continuation: "  ") + "\n"
        if number < chapter.hints.count {
            text += strings.nextHint(prefix)
        } else if readmeHasHints {
            text += strings.lastHintSeeReadme
        } else {
            text += strings.lastHint
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
