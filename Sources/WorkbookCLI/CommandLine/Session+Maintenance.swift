import Foundation
import WorkbookCurriculum

/// The commands that change or copy files, or check the workbook itself: reset, verify,
/// student-edition and hashes.
extension Session {
    func reset(_ chapter: Curriculum.Chapter) throws -> Int32 {
        let outcome: ExerciseReset.Outcome
        do {
            outcome = try ExerciseReset.reset(chapter, in: layout, from: ExerciseReset.sources(for: layout))
        } catch let missing as ExerciseReset.NoOriginals where strings.language == .korean {
            err("workbook: \(missing.korean)\n")
            return 1
        }
        out(Self.resetReport(outcome, chapter: chapter, in: layout, language: strings.language))
        return 0
    }

    /// What `reset` says about `outcome`.
    static func resetReport(
        _ outcome: ExerciseReset.Outcome, chapter: Curriculum.Chapter, in layout: PackageLayout, language: Language
    ) -> String {
        let korean = language == .korean
        switch outcome {
        case .alreadyOriginal(let source):
            return korean
                ? "챕터 \(chapter.folder)은(는) 이미 \(ExerciseReset.koreanSource(source))의 원본과 같습니다. 바뀐 것은 없습니다.\n"
                : "Chapter \(chapter.folder) already matches its original from \(source). Nothing changed.\n"
        case .restored(let source, let backup, let changed):
            var text = korean ? "여러분의 파일을 \(backup)/에 백업했습니다\n" : "Your files are backed up in \(backup)/\n"
            let removed = changed.filter { !FileManager.default.fileExists(atPath: layout.url($0).path) }
            let restored = changed.filter { !removed.contains($0) }
            let folder = PackageLayout.exerciseFolder(chapter)
            if !restored.isEmpty {
                text +=
                    korean
                    ? "\(folder)/를 \(ExerciseReset.koreanSource(source))에서 복원했습니다: \(restored.joined(separator: ", "))\n"
                    : "Restored \(folder)/ from \(source): \(restored.joined(separator: ", "))\n"
            }
            if !removed.isEmpty {
                text +=
                    korean
                    ? "삭제했습니다(원본에 없는 파일): \(removed.joined(separator: ", "))\n"
                    : "Removed (not part of the original): \(removed.joined(separator: ", "))\n"
            }
            return text
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
