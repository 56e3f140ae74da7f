import Foundation
import WorkbookCurriculum

/// One compiler error, as the build log shows it: the `path:line:column: error: message` line
/// and what the compiler printed with it (the source excerpt and its `note:` lines).
public struct CompilerDiagnostic: Equatable, Sendable {
    /// The error line, with the path relative to the package: `Chapters/05-X/A.swift:3:9: error: …`.
    public var header: String
    /// The lines printed with it: the source excerpt with its notes, or `note:` lines.
    public var details: [String]
    /// The file, relative to the package (or as the compiler wrote it, if outside).
    public var path: String
    /// The diagnostic group the compiler names in `[#Group]`, if any.
    public var group: String?
    /// The compiler's link for the group, from the footnote it prints after the errors.
    public var groupURL: String?

    /// The diagnostic as printed: the error line, then its details.
    public var text: String { ([header] + details).joined(separator: "\n") }
}

/// The compiler's errors, read from the build log: diagnostics only exist as text.
public enum BuildDiagnostics {
    /// Every error in `buildLog` once (the compiler and the module emitter print the same
    /// errors twice), in the order first seen, with its notes. Paths under `root` (or, without
    /// a root, under a `Chapters/`, `Tests/`, `Sources/` or `Solutions/` folder) become relative.
    public static func diagnostics(in buildLog: String, root: URL? = nil) -> [CompilerDiagnostic] {
        let lines = buildLog.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var footnotes: [String: String] = [:]
        for line in lines {
            if let match = line.firstMatch(of: #/^\[#(?<group>\w+)\]: <(?<url>[^>]+)>/#) {
                footnotes[String(match.group)] = String(match.url)
            }
        }
        var result: [CompilerDiagnostic] = []
        var seen = Set<String>()
        var index = 0
        while index < lines.count {
            guard let match = lines[index].firstMatch(of: #/^(?<path>[^:\s][^:]*\.swift):\d+:\d+: error: /#) else {
                index += 1
                continue
            }
            let path = relative(String(match.path), root: root)
            let header = path + lines[index].dropFirst(match.path.count)
            var details: [String] = []
            index += 1
            while index < lines.count, !endsDiagnostic(lines[index]) {
                details.append(relativeNote(lines[index], root: root))
                index += 1
            }
            guard seen.insert(header).inserted else { continue }
            let group = header.firstMatch(of: #/\[#(?<group>\w+)\]$/#).map { String($0.group) }
            result.append(
                CompilerDiagnostic(
                    header: header, details: details, path: path, group: group,
                    groupURL: group.flatMap { footnotes[$0] }))
        }
        return result
    }

    /// Whether `line` ends the lines printed with an error: a blank line, another error or
    /// warning, a build step, or SwiftPM's own messages.
    static func endsDiagnostic(_ line: String) -> Bool {
        if line.trimmingCharacters(in: .whitespaces).isEmpty { return true }
        if line.contains(": error: ") || line.contains(": warning: ") { return true }
        if line.hasPrefix("error: ") || line.hasPrefix("warning: ") || line.hasPrefix("[#") { return true }
        if line.firstMatch(of: #/^\[\d+\/\d+\]/#) != nil { return true }
        return line.hasPrefix("Build ") || line.hasPrefix("Building ") || line.hasPrefix("Compiling ")
    }

    static func relative(_ path: String, root: URL?) -> String {
        if let root {
            let prefix = root.standardizedFileURL.path + "/"
            if path.hasPrefix(prefix) { return String(path.dropFirst(prefix.count)) }
        }
        if path.hasPrefix("/") {
            for folder in ["Chapters", "Tests", "Sources", "Solutions"] {
                if let range = path.range(of: "/\(folder)/") {
                    return String(path[path.index(after: range.lowerBound)...])
                }
            }
        }
        return path
    }

    /// An LLVM-style `path:line:column: note: …` line, with its path made relative.
    static func relativeNote(_ line: String, root: URL?) -> String {
        guard let match = line.firstMatch(of: #/^(?<path>[^:\s][^:]*\.swift):\d+:\d+: note: /#) else { return line }
        return relative(String(match.path), root: root) + line.dropFirst(match.path.count)
    }

    /// Chapter folder → the chapter's error lines (`Chapters/01-Continuations/DownloadImage.swift:12:5: error: …`).
    /// Errors in a chapter's tests count for that chapter.
    public static func errorsByChapter(buildLog: String, curriculum: Curriculum, root: URL? = nil) -> [String: [String]]
    {
        var result: [String: [String]] = [:]
        for diagnostic in diagnostics(in: buildLog, root: root) {
            if let chapter = chapter(of: diagnostic, in: curriculum) {
                result[chapter.folder, default: []].append(diagnostic.header)
            }
        }
        return result
    }

    /// The chapter whose exercise or tests hold the diagnostic's file, if any.
    public static func chapter(of diagnostic: CompilerDiagnostic, in curriculum: Curriculum) -> Curriculum.Chapter? {
        curriculum.chapters.first { chapter in
            [PackageLayout.exerciseFolder(chapter), PackageLayout.testFolder(chapter)].contains {
                diagnostic.path.hasPrefix($0 + "/")
            }
        }
    }

    /// The error lines of a build log, each once.
    public static func errorLines(in buildLog: String) -> [String] {
        diagnostics(in: buildLog).map(\.header)
    }
}
