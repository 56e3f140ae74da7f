import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Long messages, wrapped at word boundaries to the terminal's width.
public enum TextWrap {
    /// `text` with `indent` before its first line and `continuation` (default: spaces as wide as
    /// `indent`) before every other line, each line wrapped to at most `width` columns where
    /// words allow; the rows a line wraps onto keep its own leading spaces too (a quoted runtime
    /// message stays under its heading). A `width` of nil only indents.
    public static func wrap(_ text: String, width: Int?, indent: String = "", continuation: String? = nil) -> String {
        let continuation = continuation ?? String(repeating: " ", count: indent.count)
        var lines: [String] = []
        for (index, paragraph) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var prefix = index == 0 ? indent : continuation
            guard let width, displayWidth(prefix) + displayWidth(String(paragraph)) > width else {
                lines.append(prefix + paragraph)
                continue
            }
            let hanging = continuation + paragraph.prefix { $0 == " " }
            var line = prefix
            var lineHasWord = false
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                if lineHasWord, displayWidth(line) + 1 + displayWidth(String(word)) > width {
                    lines.append(line)
                    prefix = hanging
                    line = prefix
                    lineHasWord = false
                }
                line += (lineHasWord ? " " : "") + word
                lineHasWord = true
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// How many terminal cells `text` takes: two for a wide character (Hangul, CJK, full-width
    /// forms), one for any other. ASCII and the tool's symbols (…, →, █) take one each.
    public static func displayWidth(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { width, scalar in
            switch scalar.value {
            case 0x0300...0x036F, 0x200B...0x200F, 0xFE00...0xFE0F: width  // combining, zero-width
            case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
                0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
                0xFFE0...0xFFE6:
                width + 2
            default: width + 1
            }
        }
    }

    /// `text` with its first line wrapped to `width`, its later rows under it (`continuation`),
    /// and its other lines as they are: "Next: chapter 02, …" with a title too long for the
    /// terminal, above its indented commands.
    public static func wrapFirstLine(_ text: String, width: Int?, continuation: String = "  ") -> String {
        guard let width else { return text }
        let end = text.firstIndex(of: "\n") ?? text.endIndex
        return wrap(String(text[..<end]), width: width, continuation: continuation) + text[end...]
    }

    /// The width to wrap to: the terminal's, when `descriptor` (standard output by default) is
    /// one; otherwise `COLUMNS` if set; otherwise nil (no wrapping, for files and pipes).
    public static func terminalWidth(
        of descriptor: Int32 = STDOUT_FILENO, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Int? {
        #if !os(Windows)
            if isatty(descriptor) != 0 {
                var size = winsize()
                #if canImport(Darwin)
                    let request = TIOCGWINSZ
                #else
                    let request = UInt(TIOCGWINSZ)
                #endif
                if ioctl(descriptor, request, &size) == 0, size.ws_col >= 40 { return Int(size.ws_col) }
            }
        #endif
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns >= 40 { return columns }
        return nil
    }
}
