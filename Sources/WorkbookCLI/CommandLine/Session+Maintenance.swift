import Foundation
import WorkbookCurriculum

/// The commands that change or copy files, or check the workbook itself: reset, verify,
/// student-edition and hashes.
extension Session {
    func reset(_ chapter: Curriculum.Chapter) throws -> Int32 {
        let outcome: ExerciseReset.Outcome
        do {
            outcome = try ExerciseReset.reset(chapter, in: layout, from: ExerciseReset.sources(for: layout))
        } catch let missing as ExerciseReset.NoOriginals {
            err("workbook: \(missing.description(in: strings.catalog))\n")
            return 1
        }
        out(Self.resetReport(outcome, chapter: chapter, in: layout, language: strings.language))
        return 0
    }

    /// What `reset` says about `outcome`.
    static func resetReport(
        _ outcome: ExerciseReset.Outcome, chapter: Curriculum.Chapter, in layout: PackageLayout, language: Language
    ) -> String {
        let text = language.catalog
        switch outcome {
        case .alreadyOriginal(let source):
            return text(
                "reset.alreadyOriginal", ["chapter": chapter.folder, "source": ExerciseReset.source(source, in: text)])
        case .restored(let source, let backup, let changed):
            var report = text("reset.backedUp", ["backup": backup])
            let removed = changed.filter { !FileManager.default.fileExists(atPath: layout.url($0).path) }
            let restored = changed.filter { !removed.contains($0) }
            let folder = PackageLayout.exerciseFolder(chapter)
            if !restored.isEmpty {
                report += text(
                    "reset.restored",
                    [
                        "folder": folder, "source": ExerciseReset.source(source, in: text),
                        "files": restored.joined(separator: ", "),
                    ])
            }
            if !removed.isEmpty { report += text("reset.removed", ["files": removed.joined(separator: ", ")]) }
            return report
        }
    }

    func verify(_ options: [String]) throws -> Int32 {
        guard layout.hasSolutions else {
            out("This is a student edition (no Solutions/): checking that the tests match their recorded hashes.\n")
            return try hashes(update: false)
        }
        let documented = VerifyOptions.documented(in: layout)
        if let unknown = options.first(where: { !documented.contains($0) }) {
            throw UsageError(
                "verify: unknown option '\(unknown)'; choose from: \(documented.joined(separator: ", "))")
        }
        return try Subprocess.run(["bash", "scripts/verify"] + options, in: layout.root)
    }

    func studentEdition(_ directory: String) throws -> Int32 {
        let base = URL(fileURLWithPath: workingDirectory.path, isDirectory: true)
        let destination = URL(fileURLWithPath: directory, relativeTo: base)
        do {
            let summary = try StudentEdition.write(from: layout, to: destination)
            for chapter in curriculum.chapters {
                guard let source = summary.restored[chapter.folder] else { continue }
                out(
                    TextWrap.wrap(
                        "Chapter \(chapter.folder): the exercise in this checkout differs from its original, so the "
                            + "edition has the original (from \(source)), not your copy.", width: width) + "\n")
            }
            out(
                TextWrap.wrap(
                    "Wrote a student edition to \(destination.standardizedFileURL.path.shellQuoted): \(summary.copiedFiles) files, "
                        + "every exercise as originally handed out, no Solutions/, a README for students, and a "
                        + "Pristine/ copy of the \(summary.pristineFiles) exercise files for `workbook reset`.",
                    width: width) + "\n")
            out("Try it: cd \(directory.shellQuoted) && swift run workbook\n")
            return 0
        } catch let refusal as StudentEdition.Refusal {
            err("workbook: \(refusal.description)\n")
            return 1
        }
    }

    func hashes(update: Bool) throws -> Int32 {
        let current = TestHashes.compute(for: curriculum, in: layout)
        if update {
            try current.write(to: layout)
            out(
                "Recorded the hashes of \(current.chapters.count) chapters' tests and exercises and of \(current.shared.count) shared files in \(PackageLayout.hashesPath).\n"
            )
            return 0
        }
        guard let recorded = try TestHashes.load(from: layout) else {
            err(
                "workbook: \(PackageLayout.hashesPath) is missing; record it with `swift run workbook hashes --update`\n"
            )
            return 1
        }
        let report = recorded.compare(with: current)
        if report.isClean {
            out(
                "The tests of all \(curriculum.chapters.count) chapters and the shared instruments match \(PackageLayout.hashesPath).\n"
            )
            return 0
        }
        err(report.problems.map { "tests modified: \($0)\n" }.joined())
        err("If these changes are intended, record them with `swift run workbook hashes --update`.\n")
        return 1
    }
}
