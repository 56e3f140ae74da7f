import Foundation

/// The words of the tool in one language, as data: `Text/Catalogs/<code>.json`, a resource of
/// this module. Each message has an id and a text with named parameters, `{count}`.
///
/// Grammar that depends on a value lives in the catalog, not in the code:
/// - a message whose value is an object (`{"one": "…", "other": "…"}`) is chosen by its
///   `count` parameter (English plurals);
/// - `{name|…}` with a Korean particle's two forms written together (the form after a final
///   consonant first) writes the value and the form its last syllable asks for, as it is read
///   aloud (``Particle``); after a sign it can't read, both forms. README.md, "Adding a
///   language", has the particles and examples.
/// - `{name|seconds}` writes a duration as the language says it: a value such as `0.5` or
///   `0.5 seconds` (as a `Duration` prints itself) through the message `format.seconds`.
///
/// A message missing from a catalog falls back to English, so a new language can grow message
/// by message; `CatalogTests` lists what a catalog lacks.
public struct Catalog: Sendable {
    /// One message: one text, or one text per plural category.
    public enum Message: Sendable, Equatable, Decodable {
        case text(String)
        case plural(one: String, other: String)

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .text(text)
            } else {
                let forms = try container.decode([String: String].self)
                guard let other = forms["other"] else {
                    throw DecodingError.dataCorruptedError(
                        in: container, debugDescription: "a plural message needs an \"other\" form")
                }
                self = .plural(one: forms["one"] ?? other, other: other)
            }
        }

        /// The message with every text changed by `change`.
        func map(_ change: (String) -> String) -> Message {
            switch self {
            case .text(let text): .text(change(text))
            case .plural(let one, let other): .plural(one: change(one), other: change(other))
            }
        }
    }

    /// The language code: `en`, `ko`.
    public let code: String
    /// The messages, by id.
    public let messages: [String: Message]

    public init(code: String, messages: [String: Message]) {
        self.code = code
        self.messages = messages
    }

    /// The catalog of `code`, or nil if the tool has none.
    public static func named(_ code: String) -> Catalog? {
        loaded.first { $0.code == code }
    }

    /// Every catalog the tool carries, English first.
    public static let loaded: [Catalog] = {
        guard
            let folder = Bundle.module.url(forResource: "Catalogs", withExtension: nil),
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return [] }
        let catalogs = names.sorted().filter { $0.hasSuffix(".json") }.compactMap { name -> Catalog? in
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path),
                let messages = try? JSONDecoder().decode([String: Message].self, from: data)
            else { return nil }
            return Catalog(code: String(name.dropLast(".json".count)), messages: messages)
        }
        return catalogs.filter { $0.code == "en" } + catalogs.filter { $0.code != "en" }
    }()

    /// The English catalog: the tool's own words, and the fallback of every other catalog.
    public static let english = named("en") ?? Catalog(code: "en", messages: [:])

    /// A pseudo-language made from `base` for tests: every line of every text wrapped in `⟦…⟧`,
    /// so that a line a learner sees without the marks did not come from the catalog.
    public static func pseudo(from base: Catalog = .english, code: String = "qps") -> Catalog {
        let wrapped = base.messages.mapValues { message in
            message.map { text in
                text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                    let indent = line.prefix { $0 == " " }
                    let rest = line.dropFirst(indent.count)
                    return rest.isEmpty ? String(line) : "\(indent)⟦\(rest)⟧"
                }.joined(separator: "\n")
            }
        }
        return Catalog(code: code, messages: wrapped)
    }

    /// Whether this catalog has its own text for `id` (not the English fallback).
    public func has(_ id: String) -> Bool { messages[id] != nil }

    /// The message `id` with its parameters filled in. An unknown id shows as itself, so a
    /// missing message is visible, never silent.
    public func callAsFunction(_ id: String, _ parameters: [String: any Sendable] = [:]) -> String {
        text(id, parameters.mapValues { "\($0)" })
    }

    func text(_ id: String, _ values: [String: String]) -> String {
        guard let message = messages[id] ?? Catalog.english.messages[id] else { return id }
        switch message {
        case .text(let only): return fill(only, values)
        case .plural(let one, let other): return fill(values["count"] == "1" ? one : other, values)
        }
    }

    /// The text of message `id` as a template: other messages it names (`{@id}`) filled in, its
    /// parameters left as `{name}`. (``DetailLines`` matches recorded lines against it.)
    func template(_ id: String) -> String? {
        guard case .text(let text) = messages[id] ?? Catalog.english.messages[id] else { return nil }
        return fill(text, [:], keepUnknown: true)
    }

    /// `text` with each `{name}` and `{name|filter}` replaced, and each `{@id}` by message `id`.
    func fill(_ text: String, _ values: [String: String], keepUnknown: Bool = false) -> String {
        guard text.contains("{") else { return text }
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let inside = rest[rest.index(after: open)..<close]
            let parts = inside.split(separator: "|", maxSplits: 1).map(String.init)
            if let name = parts.first, name.hasPrefix("@") {
                result +=
                    keepUnknown ? template(String(name.dropFirst())) ?? "" : self.text(String(name.dropFirst()), values)
                rest = rest[rest.index(after: close)...]
            } else if let name = parts.first, let value = values[name] {
                result += parts.count == 2 ? apply(parts[1], to: value) : value
                rest = rest[rest.index(after: close)...]
            } else {
                result += "{"
                rest = rest[rest.index(after: open)...]
            }
        }
        return result + rest
    }

    private func apply(_ filter: String, to value: String) -> String {
        if filter == "seconds" {
            let number = value.hasSuffix(" seconds") ? String(value.dropLast(" seconds".count)) : value
            guard Double(number) != nil else { return value }
            return self("format.seconds", ["value": number])
        }
        return value + Particle.after(value, filter)
    }
}
