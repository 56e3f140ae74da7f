/// Korean particles whose form depends on the sound before them: the form after a final
/// consonant, or the one after a vowel (`을`/`를`, `이`/`가`, `은`/`는`, `과`/`와`, `으로`/`로`).
///
/// The sound is that of the value's last syllable as a Korean reader says it:
/// - Hangul: its final consonant (받침): `워크북은`, `챕터 05가`.
/// - Digits: Sino-Korean numbers (영 일 이 삼 사 오 육 칠 팔 구): `01을`, `02를`, `03이`.
/// - A Latin word, the last one of a camel-case name or a path: as the word is written in Hangul
///   as a loanword. It ends in a consonant after `m`, `n`, `l` and `ng` (타임, 캔슬레이션, 센더블,
///   네트워킹), and after `p`, `t`, `k`/`ck`/`c` closing a short vowel (그룹, 렛, 타임아웃, 록,
///   아토믹); every other ending is read with a vowel (피커, 코드, 컨티뉴에이션스, 스위프트, 태스크).
///   A silent final `e` is skipped before `l`, `m`, `n` (센더블, 타임, 라인).
/// - Capitals at the end (`UI`, `URL`) or a word without vowels (`md`): the names of the letters,
///   of which only L (엘), M (엠), N (엔) and R (알) end in a consonant.
/// - Closing quotes, backticks and brackets (`<chapter>`) and a trailing `/` are not read, nor is
///   a part in parentheses at the end:
///   the particle follows the word before it, as in `컴퓨터(PC)를`, `fetchPhoto(url:)를`.
/// - Anything else (another script, a sign): both forms, `을(를)`.
public enum Particle {
    /// The particle of `pair` (the form after a final consonant, then the form after a vowel:
    /// `을를`, `이가`, `은는`, `과와`, `으로로`) that fits after `word`.
    public static func after(_ word: String, _ pair: String) -> String {
        let forms: (consonant: String, vowel: String)
        switch pair {
        case "을를": forms = ("을", "를")
        case "이가": forms = ("이", "가")
        case "은는": forms = ("은", "는")
        case "과와": forms = ("과", "와")
        case "으로로": forms = ("으로", "로")
        default: return ""
        }
        switch finalConsonant(of: word) {
        case .some(nil): return forms.vowel
        // ㄹ takes 로, not 으로.
        case .some(.some(Self.rieul)) where pair == "으로로": return forms.vowel
        case .some(.some): return forms.consonant
        case nil: return "\(forms.consonant)(\(forms.vowel))"
        }
    }

    /// Final consonants (jongseong indices) the rules use.
    private static let (giyeok, nieun, rieul, mieum, bieup, siot, ieung) = (1, 4, 8, 16, 17, 19, 21)

    /// The final consonant (jongseong index, 1…27) of the last syllable of `word` as read
    /// aloud: `.some(nil)` for none, nil if it can't be read (a sign, another script).
    static func finalConsonant(of word: String) -> Int?? {
        let spoken = Array(readWord(of: word))
        guard let last = spoken.last else { return nil }
        if let scalar = last.unicodeScalars.first, last.unicodeScalars.count == 1,
            (0xAC00...0xD7A3).contains(scalar.value)
        {
            let index = Int(scalar.value - 0xAC00) % 28
            return .some(index == 0 ? nil : index)
        }
        let digits: [Character: Int?] = [
            "0": ieung, "1": rieul, "2": nil, "3": mieum, "4": nil, "5": nil, "6": giyeok, "7": rieul, "8": rieul,
            "9": nil,
        ]
        if let final = digits[last] { return .some(final) }
        guard last.isASCII, last.isLetter else { return nil }
        let letters = spoken.reversed().prefix { $0.isASCII && $0.isLetter }.reversed()
        if last.isUppercase { return .some(letterName(last)) }
        // The last word of a camel-case name: from its last capital (or the start of the letters).
        let start = letters.lastIndex { $0.isUppercase } ?? letters.startIndex
        let loanword = String(letters[start...]).lowercased()
        guard loanword.contains(where: { "aeiouy".contains($0) }) else { return .some(letterName(last)) }
        return .some(loanwordFinal(loanword))
    }

    /// `word` without what is not read before a particle: closing quotes, backticks and
    /// brackets, a trailing `/`, and a part in parentheses at the end.
    private static func readWord(of word: String) -> Substring {
        var rest = Substring(word)
        while let last = rest.last {
            if "\"'`’”/>]".contains(last) {
                rest = rest.dropLast()
            } else if last == ")", let open = rest.lastIndex(of: "("), open > rest.startIndex {
                rest = rest[..<open]
            } else {
                break
            }
        }
        return rest
    }

    /// The final consonant of a letter's Korean name: 엘, 엠, 엔, 알; the others end in a vowel.
    private static func letterName(_ letter: Character) -> Int? {
        switch letter.uppercased() {
        case "L", "R": rieul
        case "M": mieum
        case "N": nieun
        default: nil
        }
    }

    /// The final consonant of a lowercase English word written in Hangul as a loanword.
    private static func loanwordFinal(_ word: String) -> Int? {
        if word.hasSuffix("ng") { return ieung }
        var letters = Array(word)
        // A silent e after l, m or n: 센더블, 타임, 라인.
        if letters.count > 2, letters.last == "e", "lmn".contains(letters[letters.count - 2]) {
            letters.removeLast()
        }
        guard let last = letters.last else { return nil }
        switch last {
        case "m": return mieum
        case "n": return nieun
        case "l": return rieul
        case "p", "t", "k", "c":
            // p, t, k close a short vowel (그룹, 렛, 아웃, 록, 북, 아토믹); after a long vowel or
            // another consonant they are read with ㅡ (루프, 부트, 태스크, 싱크).
            var stem = letters.dropLast()
            if last == "k", stem.last == "c" { stem = stem.dropLast() }
            if stem.last == last { stem = stem.dropLast() }
            let vowels = "aeiou"
            guard let vowel = stem.last, vowels.contains(vowel) else { return nil }
            let before = stem.dropLast().last
            let isShort =
                (before.map { !vowels.contains($0) } ?? true)
                || (before == "o" && vowel == "u" && last != "k")
                || (before == "o" && vowel == "o" && last == "k")
            guard isShort else { return nil }
            return switch last {
            case "p": bieup
            case "t": siot
            default: giyeok
            }
        default: return nil
        }
    }
}
