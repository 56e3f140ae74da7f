import Foundation
import WorkbookCurriculum

/// `workbook watch`: check, wait for a save, check again; move on when the chapter passes
/// and its files are still the ones that passed.
extension Session {
    func watch(_ requested: Curriculum.Chapter?) throws -> Int32 {
        Interrupts.shared.installHandlers()
        var current = requested
        var earlier: LearnerRun?  // a run of every chapter, when one was just made
        if current == nil {
            let (statuses, run) = try statuses(of: curriculum.chapters)
            current = curriculum.chapters.first { statuses[$0.folder]?.isDoneOrLastKnownDone != true }
            earlier = run
        }
        while let chapter = current {
            let folder = PackageLayout.exerciseFolder(chapter)
            out(strings.watchChecking(chapter.folder))
            let (status, run) = try checkRun(chapter, reusing: earlier)
            earlier = nil
            // The verdict is about the files as they were when its run started; a save since
            // then (even during a passing run) means checking again, never moving on.
            let verdictFiles = run.fingerprint.restricted(to: chapter)
            let unchanged = RunFingerprint.take(of: [chapter], root: layout.root).changes(since: verdictFiles).isEmpty
            if status.isDone && unchanged {
                out(strings.watchPasses(chapter.folder))
                let (statuses, run) = try statuses(of: curriculum.chapters)
                if statuses[chapter.folder]?.isDone == true {
                    current = curriculum.firstNotDone(after: chapter, statuses: statuses)
                } else {
                    out(strings.watchNoLongerPasses(chapter.folder))
                }
                earlier = run
                continue
            }
            out(strings.watchWatching(folder))
            var debouncer = SaveDebouncer(watching: verdictFiles.snapshot(of: folder))
            while true {
                let now = Date().timeIntervalSinceReferenceDate
                if let changed = debouncer.observe(FileSnapshot.take(of: folder, root: layout.root), at: now) {
                    let names = changed.map { ($0 as NSString).lastPathComponent }.joined(separator: ", ")
                    out(strings.watchChanged(names, chapter.folder))
                    break
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        out(strings.watchAllDone(curriculum.chapters.count))
        return 0
    }
}

extension Curriculum {
    /// The first chapter after `chapter`, wrapping around, that is not done; nil when all are.
    public func firstNotDone(after chapter: Chapter, statuses: [String: ChapterStatus]) -> Chapter? {
        let index = chapters.firstIndex(of: chapter) ?? 0
        let order = chapters[(index + 1)...] + chapters[..<index]
        return order.first { statuses[$0.folder]?.isDone != true }
    }
}
