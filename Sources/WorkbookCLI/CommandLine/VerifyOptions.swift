import Foundation

/// The options `workbook verify` passes on to `scripts/verify`: the ones the script
/// documents in its header (what its `--help` prints), so the two never disagree.
public enum VerifyOptions {
    /// The options in `scripts/verify`'s header comment: each `[--option]` of its usage
    /// line, and each comment line that starts with `--option`.
    public static func documented(inScript text: String) -> [String] {
        var options: [String] = []
        for line in text.split(separator: "\n").dropFirst() {
            guard line.hasPrefix("#") else { break }
            let matches =
                line.matches(of: #/\[(--[a-z0-9][a-z0-9-]*)/#).map { String($0.output.1) }
                + (line.firstMatch(of: #/^#\s+(--[a-z0-9][a-z0-9-]*)/#).map { [String($0.output.1)] } ?? [])
            for option in matches where !options.contains(option) && option != "--help" {
                options.append(option)
            }
        }
        return options
    }

    /// The options documented by the checkout's `scripts/verify` (none if it has no script).
    public static func documented(in layout: PackageLayout) -> [String] {
        (try? String(contentsOf: layout.url("scripts/verify"), encoding: .utf8)).map(documented(inScript:)) ?? []
    }
}

extension String {
    /// The string as one shell word, in single quotes, so that a path with spaces can be
    /// pasted into a shell as it is printed.
    public var shellQuoted: String {
        "'" + replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
