import Foundation

/// The source files of the module a chapter's tests were built against: `Chapters/<folder>/`,
/// or `Solutions/<folder>/` in a build with the `Solutions` trait. For tests that read the
/// learner's code as text (the Swift 6 compile, escape-hatch and sleep scans).
public struct ChapterSources: Sendable {
    /// The folder whose `.swift` files form the module.
    public let folder: URL

    /// - Parameters:
    ///   - chapter: The chapter folder, for example `13-SendableAndRegions`.
    ///   - filePath: Leave the default: the calling test file, from which the workbook's root is found.
    public init(chapter: String, filePath: String = #filePath) {
        #if Solutions
            let edition = "Solutions"
        #else
            let edition = "Chapters"
        #endif
        folder = Self.workbookRoot(from: filePath).appendingPathComponent("\(edition)/\(chapter)")
    }

    /// The sources in `folder` (the instruments' own tests).
    init(folder: URL) {
        self.folder = folder
    }

    /// The Swift files, sorted by path (anything under `Variants/` is left out, as the package does).
    public var files: [URL] {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        var files: [URL] = []
        while let url = enumerator?.nextObject() as? URL {
            if url.lastPathComponent == "Variants" { enumerator?.skipDescendants() }
            if url.pathExtension == "swift" { files.append(url) }
        }
        return files.sorted { $0.path < $1.path }
    }

    /// The names of the Swift files, for example `PhotoExporter.swift`.
    public var fileNames: [String] { files.map(\.lastPathComponent) }

    /// The text of the file named `name`, or nil if there is none.
    public func text(of name: String) -> String? {
        guard let url = files.first(where: { $0.lastPathComponent == name }) else { return nil }
        return try? String(contentsOf: url, encoding: .utf8)
    }

    /// `text` with comments and the insides of string literals replaced by spaces, newlines kept,
    /// so a lexical scan finds only code, at the same lines and UTF-16 offsets.
    public static func blankingCommentsAndStrings(_ text: String) -> String {
        let units = Array(text.utf16)
        var out = units
        var index = 0
        func blank(_ range: Range<Int>) {
            for i in range where out[i] != 10 { out[i] = 32 }
        }
        func starts(_ string: String, at i: Int) -> Bool {
            let pattern = Array(string.utf16)
            return i + pattern.count <= units.count && Array(units[i..<(i + pattern.count)]) == pattern
        }
        while index < units.count {
            if starts("//", at: index) {
                let start = index
                while index < units.count, units[index] != 10 { index += 1 }
                blank(start..<index)
            } else if starts("/*", at: index) {
                let start = index
                var depth = 0
                while index < units.count {
                    if starts("/*", at: index) {
                        depth += 1
                        index += 2
                    } else if starts("*/", at: index) {
                        depth -= 1
                        index += 2
                        if depth == 0 { break }
                    } else {
                        index += 1
                    }
                }
                blank(start..<index)
            } else if units[index] == 34 {  // "
                let multiline = starts("\"\"\"", at: index)
                let quote = multiline ? 3 : 1
                index += quote
                let start = index
                while index < units.count {
                    if units[index] == 92 {  // backslash
                        index += 2
                    } else if multiline ? starts("\"\"\"", at: index) : units[index] == 34 || units[index] == 10 {
                        break
                    } else {
                        index += 1
                    }
                }
                blank(start..<min(index, units.count))
                index += quote
            } else {
                index += 1
            }
        }
        return String(utf16CodeUnits: out, count: out.count)
    }

    /// The folder that holds `Package.swift`, found upward from `filePath`.
    static func workbookRoot(from filePath: String) -> URL {
        var folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return folder
            }
            folder.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }
}
