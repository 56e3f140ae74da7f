import Foundation

/// The fixed lines the workbook's own instruments write into failure messages (the crash
/// diagnosis, the bounded wait, the Swift 6 check, the run's limits), in another language.
///
/// A template is one whole line, its indentation aside; `\(name)` stands for any text, which the
/// translation repeats. Lines no template matches (what a chapter's test observed) stay as recorded.
public struct DetailLines: Sendable {
    /// English template → translated template, or (from a catalog) the message id.
    public var templates: [(english: String, translated: String)]
    /// The catalog that words the lines, if they come from one.
    var catalog: Catalog?

    public init(_ templates: [(english: String, translated: String)]) {
        self.templates = templates
    }

    /// The lines of `catalog`: its `detail.…` messages (what WorkbookTesting's instruments
    /// write, word for word) and `issue.…` messages (what ``RunAccounting`` records), matched
    /// against their English text. The template with the most fixed text that matches wins.
    public init(catalog: Catalog) {
        let ids = Catalog.english.messages.keys.filter { $0.hasPrefix("detail.") || $0.hasPrefix("issue.") }
        templates = ids.compactMap { id in
            guard let english = Catalog.english.template(id) else { return nil }
            // The catalog's `{name}` as the matcher's `\(name)`.
            let pattern = english.replacing(#/\{([A-Za-z]+)(\|[^}]*)?\}/#) { "\\(" + $0.output.1 + ")" }
            return (pattern, id)
        }.sorted { (Self.literalLength($0.english), $0.translated) > (Self.literalLength($1.english), $1.translated) }
        self.catalog = catalog
    }

    /// How much of `template` is fixed text, its `\(name)` placeholders left out: the more, the
    /// more specific the template, so it is tried first.
    static func literalLength(_ template: String) -> Int {
        template.replacing(#/\\\([^)]*\)/#, with: "").count
    }

    /// The lines in Korean (the formal register; terms as in Chapters/glossary.ko.md).
    public static let korean = DetailLines(catalog: Language.korean.catalog)

    /// `line` translated, with its indentation, or nil when no template matches it. Each value
    /// goes through `value` first (a chapter's own templates, for what its test reported).
    public func translate(_ line: String, value: (String) -> String = { $0 }) -> String? {
        let indent = String(line.prefix { $0 == " " })
        let content = String(line.dropFirst(indent.count))
        for template in templates {
            if let values = Self.match(template.english, content)?.mapValues(value) {
                guard let catalog else { return indent + LessonTranslator.fill(template.translated, with: values) }
                return indent + catalog.text(template.translated, values)
            }
        }
        return nil
    }

    /// The values of `template`'s `\(name)` placeholders when `line` is the whole template.
    static func match(_ template: String, _ line: String) -> [String: String]? {
        LessonTranslator.values(of: template, in: line, followedBy: "$")
    }
}
