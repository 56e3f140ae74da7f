import Foundation
import WorkbookCurriculum

/// A learner build that failed: which chapters don't compile, and each compiler error once.
///
/// All chapters build together, so one chapter's compile error stops every chapter's tests.
/// This says so plainly, points at the broken chapter, and, where an error is one a chapter's
/// reading teaches (it quotes the compiler's `[#Group]`), names that README section.
public struct BuildFailure: Equatable, Sendable {
    public var diagnostics: [CompilerDiagnostic]
    /// The chapters with errors in their exercise or tests, in order.
    public var brokenChapters: [Curriculum.Chapter]
    /// Files with errors outside every chapter (say, an edited `Sources/SimulatedWorld`).
    public var otherFiles: [String]
    /// Diagnostic group → the README section that teaches it.
    public var teaching: [String: Teaching]
    /// The end of the log, shown when it holds no compiler error (SwiftPM failed otherwise).
    public var logTail: [String]

    /// A chapter's README section that quotes a compiler diagnostic.
    public struct Teaching: Equatable, Sendable {
        public var chapter: Int
        public var readme: String
        public var section: String
    }

    /// Reads a failed build's log. `readings` gives a chapter's README text (for the teaching
    /// pointers); by default it is read from `root`.
    public init(log: String, curriculum: Curriculum, root: URL?, readings: ((Curriculum.Chapter) -> String?)? = nil) {
        diagnostics = BuildDiagnostics.diagnostics(in: log, root: root)
        let chapters = Set(diagnostics.compactMap { BuildDiagnostics.chapter(of: $0, in: curriculum)?.folder })
        brokenChapters = curriculum.chapters.filter { chapters.contains($0.folder) }
        var others: [String] = []
        for diagnostic in diagnostics
        where BuildDiagnostics.chapter(of: diagnostic, in: curriculum) == nil && !others.contains(diagnostic.path) {
            others.append(diagnostic.path)
        }
        otherFiles = others
        logTail =
            diagnostics.isEmpty ? Array(log.split(separator: "\n").suffix(15).map(String.init)) : []
        let read =
            readings ?? { chapter in
                root.flatMap { try? String(contentsOf: $0.appendingPathComponent(chapter.readmePath), encoding: .utf8) }
            }
        var teaching: [String: Teaching] = [:]
        for group in Set(diagnostics.compactMap(\.group)) {
            for chapter in curriculum.chapters {
                if let text = read(chapter), let section = Self.section(quoting: "[#\(group)]", in: text) {
                    teaching[group] = Teaching(chapter: chapter.number, readme: chapter.readmePath, section: section)
                    break
                }
            }
        }
        self.teaching = teaching
    }

    /// The heading of the README section whose text quotes `marker`.
    static func section(quoting marker: String, in readme: String) -> String? {
        var heading: String?
        for line in readme.split(separator: "\n") {
            if line.hasPrefix("#") {
                heading = String(line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces))
            } else if line.contains(marker) {
                return heading
            }
        }
        return nil
    }

    /// "chapter 05" / "chapters 05 and 07" / "the workbook".
    var culprit: String { culprit(.english) }

    func culprit(_ strings: Strings) -> String {
        strings.culprit(brokenChapters.map { String(format: "%02d", $0.number) })
    }

    /// The plain sentence: what does not compile and what that means for the other chapters.
    /// `checking` names the chapter a `check` was asked for.
    public func summary(checking chapter: Curriculum.Chapter? = nil, strings: Strings = .english) -> String {
        if brokenChapters.isEmpty, otherFiles.isEmpty { return strings.buildFailedNoChapter }
        return strings.buildSummary(
            culprit(strings), brokenChapters.isEmpty ? otherFiles : [], brokenChapters.count > 1,
            chapter.map { String(format: "%02d", $0.number) },
            chapter.map { chapter in brokenChapters.contains { $0.folder == chapter.folder } } ?? false)
    }

    /// The next step: fix the broken chapter, or put its original back.
    public func nextStep(strings: Strings = .english) -> String {
        guard let first = brokenChapters.first else { return strings.buildNextStepNoChapter(otherFiles) }
        return strings.buildNextStep(String(format: "%02d", first.number), first.title, first.readmePath)
    }

    /// Each error once, with its notes, and the README section that teaches it, if one does.
    /// `only` keeps the errors in the files of one chapter.
    public func renderErrors(
        limit: Int = 10, width: Int? = nil, only chapter: Curriculum.Chapter? = nil, strings: Strings = .english
    ) -> String {
        guard !diagnostics.isEmpty else {
            return strings.buildLogTail + logTail.map { "  \($0)\n" }.joined()
        }
        let diagnostics = self.diagnostics.filter { diagnostic in
            guard let chapter else { return true }
            return [PackageLayout.exerciseFolder(chapter), PackageLayout.testFolder(chapter)].contains {
                diagnostic.path.hasPrefix($0 + "/")
            }
        }
        var text = strings.compilerErrors
        for diagnostic in diagnostics.prefix(limit) {
            text += "\n" + diagnostic.text + "\n"
            if let group = diagnostic.group, let taught = teaching[group] {
                let sentence = strings.teachesError(
                    String(format: "%02d", taught.chapter), taught.section, taught.readme)
                text += TextWrap.wrap(sentence, width: width, indent: "→ ") + "\n"
            } else if let url = diagnostic.groupURL {
                text += strings.compilerExplains(diagnostic.group ?? "", url)
            }
        }
        if diagnostics.count > limit { text += strings.moreErrors(diagnostics.count - limit) }
        return text
    }
}
