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
    /// words allow. A `width` of nil only indents.
    public static func wrap(_ text: String, width: Int?, indent: String = "", continuation: String? = nil) -> String {
        let continuation = continuation ?? String(repeating: " ", count: indent.count)
        var lines: [String] = []
        for (index, paragraph) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var prefix = index == 0 ? indent : continuation
            guard let width, prefix.count + paragraph.count > width else {
                lines.append(prefix + paragraph)
                continue
            }
            var line = prefix
            var lineHasWord = false
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                if lineHasWord, line.count + 1 + word.count > width {
                    lines.append(line)
                    prefix = continuation
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

    /// The width to wrap to: the terminal's, when standard output is one; otherwise `COLUMNS`
    /// if set; otherwise nil (no wrapping, for files and pipes).
    public static func terminalWidth(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int? {
        #if !os(Windows)
            if isatty(STDOUT_FILENO) != 0 {
                var size = winsize()
                #if canImport(Darwin)
                    let request = TIOCGWINSZ
                #else
                    let request = UInt(TIOCGWINSZ)
                #endif
                if ioctl(STDOUT_FILENO, request, &size) == 0, size.ws_col >= 40 { return Int(size.ws_col) }
            }
        #endif
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns >= 40 { return columns }
        return nil
    }
}
