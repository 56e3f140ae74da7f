/// The language the learner's commands speak: `--lang CODE` on any command, else
/// `WORKBOOK_LANG`, else the locale (`LC_ALL`, `LC_MESSAGES`, `LANG`, in that order, the first
/// one set decides), else English. A language is a catalog in `Text/Catalogs` (``Catalog``);
/// `qps` is the pseudo-language made from English for tests (``Catalog/pseudo(from:code:)``).
/// Teacher commands (`report`, `grade`, `verify`, `hashes`, `student-edition`) speak English
/// whatever is chosen.
public struct Language: Hashable, Sendable {
    /// The catalog's code: `en`, `ko`.
    public let code: String

    private init(catalog code: String) { self.code = code }

    public static let english = Language(catalog: "en")
    public static let korean = Language(catalog: "ko")
    /// The pseudo-language: every text of the English catalog wrapped in `⟦…⟧`.
    public static let pseudo = Language(catalog: "qps")

    /// The code, as in a catalog's file name.
    public var rawValue: String { code }

    /// The language a code names, if the tool has its catalog: `ko`, `ko_KR.UTF-8` → Korean;
    /// `en`, `en_US` → English.
    public init?(code: String) {
        let base = String(code.lowercased().prefix { $0.isLetter })
        guard Self.catalogs[base] != nil else { return nil }
        self.code = base
    }

    /// The language the environment asks for, when no `--lang` was given.
    public static func from(environment: [String: String]) -> Language {
        if let chosen = environment["WORKBOOK_LANG"].flatMap(Language.init(code:)) { return chosen }
        // POSIX: LC_ALL overrides LC_MESSAGES, which overrides LANG; the first set one decides.
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            return Language(code: value) ?? .english
        }
        return .english
    }

    /// Takes `--lang CODE` (or `--lang=CODE`) out of `arguments`: the language it names, if
    /// given, and the other arguments.
    public static func extract(from arguments: [String]) throws(UsageError) -> (
        language: Language?, rest: [String]
    ) {
        var language: Language?
        var rest: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            let value: String
            if argument == "--lang" {
                guard index < arguments.count else { throw UsageError(id: "language.missing") }
                value = arguments[index]
                index += 1
            } else if argument.hasPrefix("--lang=") {
                value = String(argument.dropFirst("--lang=".count))
            } else {
                rest.append(argument)
                continue
            }
            guard let chosen = Language(code: value) else { throw UsageError(id: "language.unknown", ["value": value]) }
            language = chosen
        }
        return (language, rest)
    }

    /// The language for `arguments` in `environment`, and the arguments without `--lang`.
    public static func choose(arguments: [String], environment: [String: String]) throws(UsageError) -> (
        language: Language, rest: [String]
    ) {
        let (flag, rest) = try extract(from: arguments)
        return (flag ?? from(environment: environment), rest)
    }

    /// The catalogs by code: those the tool carries, and the pseudo-language.
    static let catalogs: [String: Catalog] = {
        var catalogs = Dictionary(uniqueKeysWithValues: Catalog.loaded.map { ($0.code, $0) })
        catalogs["qps"] = Catalog.pseudo(code: "qps")
        return catalogs
    }()

    /// The words of this language.
    public var catalog: Catalog { Self.catalogs[code] ?? .english }

    /// Everything the learner's commands print, in this language.
    public var strings: Strings {
        switch code {
        case "en": .english
        case "ko": .korean
        default: Strings(catalog: catalog, language: self)
        }
    }
}
