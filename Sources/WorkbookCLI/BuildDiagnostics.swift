import WorkbookCurriculum

/// The compiler's errors, sorted by chapter. Compiler diagnostics only exist as text, so
/// this reads the build log's `path:line:column: error: message` lines.
public enum BuildDiagnostics {
    /// Chapter folder → the chapter's error lines, shortened to paths relative to the
    /// package (`Chapters/01-Continuations/DownloadImage.swift:12:5: error: …`).
    /// Errors in a chapter's tests count for that chapter.
    public static func errorsByChapter(buildLog: String, curriculum: Curriculum) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for line in errorLines(in: buildLog) {
            for chapter in curriculum.chapters {
                for folder in [PackageLayout.exerciseFolder(chapter), PackageLayout.testFolder(chapter)] {
                    guard
                        let range = line.range(of: "/" + folder + "/")
                            ?? (line.hasPrefix(folder + "/") ? line.range(of: folder + "/") : nil)
                    else { continue }
                    let relative = folder + "/" + line[range.upperBound...]
                    if !(result[chapter.folder]?.contains(relative) ?? false) {
                        result[chapter.folder, default: []].append(relative)
                    }
                }
            }
        }
        return result
    }

    /// The `…: error: …` lines of a build log, without duplicates.
    public static func errorLines(in buildLog: String) -> [String] {
        var seen = Set<String>()
        return buildLog.split(whereSeparator: \.isNewline).map(String.init)
            .filter { $0.contains(": error: ") && seen.insert($0).inserted }
    }
}
