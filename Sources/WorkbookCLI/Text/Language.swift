/// The language the learner's commands speak: `--lang ko|en` on any command, else
/// `WORKBOOK_LANG`, else a Korean locale (`LC_ALL`, `LC_MESSAGES`, `LANG`, in that order, the
/// first one set decides), else English. Teacher commands (`report`, `grade`, `verify`,
/// `hashes`, `student-edition`) speak English whatever is chosen.
public enum Language: String, Equatable, Sendable, CaseIterable {
    case english = "en"
    case korean = "ko"

    /// The language a code names: `ko`, `ko_KR.UTF-8` → Korean; `en`, `en_US` → English.
    public init?(code: String) {
        let code = code.lowercased()
        if code.hasPrefix("ko") {
            self = .korean
        } else if code.hasPrefix("en") {
            self = .english
        } else {
            return nil
        }
    }

    /// The language the environment asks for, when no `--lang` was given.
    public static func from(environment: [String: String]) -> Language {
        if let chosen = environment["WORKBOOK_LANG"].flatMap(Language.init(code:)) { return chosen }
        // POSIX: LC_ALL overrides LC_MESSAGES, which overrides LANG; the first set one decides.
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            return value.lowercased().hasPrefix("ko") ? .korean : .english
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
                guard index < arguments.count else {
                    throw UsageError("--lang: missing language (ko or en)", korean: "--lang: 언어가 빠졌습니다 (ko 또는 en)")
                }
                value = arguments[index]
                index += 1
            } else if argument.hasPrefix("--lang=") {
                value = String(argument.dropFirst("--lang=".count))
            } else {
                rest.append(argument)
                continue
            }
            guard let chosen = Language(code: value), value.count == 2 || value.contains("_") else {
                throw UsageError(
                    "--lang: unknown language '\(value)'; choose ko or en",
                    korean: "--lang: 알 수 없는 언어 '\(value)'입니다. ko 또는 en을 고르세요")
            }
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

    /// Everything the learner's commands print, in this language.
    public var strings: Strings { self == .korean ? .korean : .english }
}
