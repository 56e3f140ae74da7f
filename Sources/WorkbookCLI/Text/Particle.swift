/// Korean particles whose form depends on the sound before them: the form after a final
/// consonant, or the one after a vowel. A catalog names a particle by its two forms written
/// together, the consonant form first (`{name|…}`; README.md, "Adding a language", lists
/// them with examples), so no Korean text lives in this file.
///
/// The sound is that of the value's last syllable as a Korean reader says it:
/// - Hangul: its final consonant (batchim).
/// - Digits: the Sino-Korean numbers (yeong, il, i, sam, sa, o, yuk, chil, pal, gu).
/// - A Latin word, the last one of a camel-case name or a path: as the word is written in Hangul
///   as a loanword. It ends in a consonant after `m`, `n`, `l` and `ng` (time, cancellation,
///   sendable, networking), and after `p`, `t`, `k`/`ck`/`c` closing a short vowel (group, let,
///   timeout, lock, atomic); every other ending is read with a vowel (picker, code,
///   continuations, swift, task). A silent final `e` is skipped before `l`, `m`, `n`
///   (sendable, time, line).
/// - Capitals at the end (`UI`, `URL`) or a word without vowels (`md`): the names of the letters,
///   of which only L, M, N and R end in a consonant.
/// - Closing quotes, backticks and brackets (`<chapter>`), a trailing `/` or space are not read,
///   nor is a part in parentheses at the end: the particle follows the word before it, as after
///   `fetchPhoto(url:)` or `"Tidal" (187 s)`.
/// - Anything else (another script, a sign): both forms, the consonant form first, the vowel
///   form in parentheses.
public enum Particle {
    /// The particle of `pair` that fits after `word`. `pair` is the particle's two forms
    /// written together, the form after a final consonant first; the form after a vowel is its
    /// last syllable. Empty when `pair` is not two forms of Hangul syllables.
    public static func after(_ word: String, _ pair: String) -> String {
        let syllables = Array(pair)
        guard syllables.count >= 2, syllables.allSatisfy(isSyllable) else { return "" }
        let forms = (consonant: String(syllables.dropLast()), vowel: String(syllables.last!))
        // A particle whose consonant form only adds a linking syllable to its vowel form (the
        // instrumental particle) takes the vowel form after a final rieul too.
        let linking = forms.consonant.count == 2 && forms.consonant.dropFirst() == forms.vowel
        switch finalConsonant(of: word) {
        case .some(nil): return forms.vowel
        case .some(.some(Self.rieul)) where linking: return forms.vowel
        case .some(.some): return forms.consonant
        case nil: return "\(forms.consonant)(\(forms.vowel))"
        }
    }

    /// Whether `character` is one precomposed Hangul syllable.
    private static func isSyllable(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1 else { return false }
        return (0xAC00...0xD7A3).contains(scalar.value)
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
            if "\"'`’”/>] ".contains(last) {
                rest = rest.dropLast()
            } else if last == ")", let open = rest.lastIndex(of: "("), open > rest.startIndex {
                rest = rest[..<open]
            } else {
                break
            }
        }
        return rest
    }

    /// The final consonant of a letter's Korean name: those of L, M, N and R end in a consonant;
    /// the others in a vowel.
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
        // A silent e after l, m or n: sendable, time, line.
        if letters.count > 2, letters.last == "e", "lmn".contains(letters[letters.count - 2]) {
            letters.removeLast()
        }
        guard let last = letters.last else { return nil }
        switch last {
        case "m": return mieum
        case "n": return nieun
        case "l": return rieul
        case "p", "t", "k", "c":
            // p, t, k close a short vowel (group, let, out, lock, book, atomic); after a long
            // vowel or another consonant they are read with a vowel added (loop, boot, task, sink).
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
