import Foundation
import WorkbookCurriculum

/// How a test run ended, and what that means for the tests that had not finished.
///
/// A run counts only if the event stream reached its end. A test that started and never
/// ended did not pass, whatever the exit status says: the test process may have been
/// stopped at the time limit, run out of memory, crashed, or been ended by the exercise
/// itself (`exit(0)` outside an exit test ends it with status 0 and no error).
public enum RunEnding: Equatable, Sendable {
    /// The stream reached the end of the run.
    case finished
    /// The tool stopped the run at its time limit.
    case timeLimit(seconds: Int)
    /// The test process ran out of the memory it was allowed ("2 GB").
    case memoryLimit(String)
    /// The test process crashed; `said` is what the runtime printed.
    case crashed(signal: Int32?, said: [String])
    /// The test process ended before the run did, without crashing.
    case endedEarly(status: Int32)

    /// Whether the run was cut short.
    public var isStop: Bool { self != .finished }
}

/// Reads how a run ended and marks the tests it left unfinished.
public enum RunAccounting {
    /// What the runtime and the C library print when an allocation fails.
    static let outOfMemoryMarkers = [
        "failed to allocate", "could not allocate memory", "cannot allocate memory", "std::bad_alloc",
        "out of memory", "memory exhausted",
    ]

    /// Whether `text` reports a failed allocation.
    public static func mentionsOutOfMemory(_ text: String) -> Bool {
        let lower = text.lowercased()
        return outOfMemoryMarkers.contains { lower.contains($0) }
    }

    /// How the run that produced `run` and `log` ended.
    /// - Parameters:
    ///   - status: the exit status of `swift test`, or of the test executable run on its own.
    ///   - passedTimeLimit: the tool stopped it at the time limit.
    ///   - signal: the signal that ended the test executable, when the tool ran it on its own.
    public static func ending(
        of run: TestRun, log: String, status: Int32, passedTimeLimit: Bool, limits: RunLimits,
        signal: Int32? = nil
    ) -> RunEnding {
        if passedTimeLimit { return .timeLimit(seconds: limits.timeLimit) }
        if run.runEnded { return .finished }
        // Under `swift test`, SwiftPM's words when the test process dies of a signal (on Linux).
        let signal =
            signal ?? log.firstMatch(of: #/exited with unexpected signal code (\d+)/#).flatMap { Int32($0.output.1) }
        let crashLines = runtimeMessage(in: log)
        if signal != nil || (status != 0 && !crashLines.isEmpty) {
            if mentionsOutOfMemory(crashLines.joined(separator: "\n")) || (signal != nil && mentionsOutOfMemory(log)) {
                return .memoryLimit(limits.memoryLimitText)
            }
            return .crashed(signal: signal, said: crashLines)
        }
        return .endedEarly(status: status)
    }

    /// The runtime's last words in a log: its "Fatal error" line and the crash line, without
    /// the backtrace. The last ones: the test process dies last.
    public static func runtimeMessage(in log: String) -> [String] {
        let lines = log.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        // The runtime's own lines start the line ("File.swift:12: Fatal error: …"); the
        // crash report's register dump shows the same bytes in the middle of a line.
        let fatal = lines.last { line in
            line.starts(with: #/([^ ]+:\d+: )?Fatal error: /#) || line.hasPrefix("SWIFT TASK CONTINUATION MISUSE")
        }
        let crash = lines.last { $0.hasPrefix("*** Program crashed") }
        return [fatal, crash].compactMap { $0 }
    }

    /// Adds to every test the run left unfinished an issue that says why it did not pass,
    /// and replaces any issue about an exhausted memory limit (from an exit test's child)
    /// with the plain reason, instead of the lesson the test was checking.
    public static func annotate(_ run: inout TestRun, ending: RunEnding, limits: RunLimits) {
        for index in run.tests.indices {
            if run.tests[index].issues.contains(where: mentionsOutOfMemory) {
                run.tests[index].issues = [Catalog.english("issue.memoryInChild", ["limit": limits.memoryLimitText])]
            }
            guard run.tests[index].started, !run.tests[index].ended, let message = message(for: ending) else {
                continue
            }
            run.tests[index].issues.append(message)
        }
    }

    /// What a test left unfinished by `ending` records.
    static func message(for ending: RunEnding) -> String? {
        let english = Catalog.english
        switch ending {
        case .finished:
            return nil
        case .timeLimit(let seconds):
            return english("issue.timeLimit", ["seconds": seconds])
        case .memoryLimit(let limit):
            return english("issue.memoryLimit", ["limit": limit])
        case .crashed(let signal, let said):
            var text = signal.map { english("issue.crashed.signal", ["signal": $0]) } ?? english("issue.crashed")
            if !said.isEmpty {
                text += "\n" + english("issue.runtimeSaid") + "\n" + said.map { "  " + $0 }.joined(separator: "\n")
            }
            return text
        case .endedEarly(let status):
            return english("issue.endedEarly", ["status": status])
        }
    }

    /// The paragraph printed under the table or the check when the run was cut short:
    /// which chapters' tests were running, and why the run stopped.
    ///
    /// In a run of several chapters, one looping exercise keeps the threads every other
    /// chapter's tests wait for, so many tests are "running" when the limit passes. The
    /// exercises as handed out are known to finish (`scripts/verify` checks them), so the
    /// chapters whose exercises are `untouched` are named as waiting, not as the cause.
    public static func report(
        _ run: TestRun, ending: RunEnding, chapters: [Curriculum.Chapter], untouched: Set<String> = [],
        language: Language = .english
    ) -> String? {
        guard ending.isStop else { return nil }
        var ending = ending
        if case .crashed(let signal, let said) = ending {
            ending = .crashed(signal: signal, said: said.map { PackageLayout.editorPaths(in: $0, chapters: chapters) })
        }
        let running = run.tests.filter { $0.started && !$0.ended }
        let notStarted = run.tests.filter { !$0.started && !$0.ended }
        let runningChapters = chapters.filter { chapter in running.contains { $0.module == chapter.testTarget } }
        var suspects = runningChapters.filter { !untouched.contains($0.folder) }
        if suspects.isEmpty || chapters.count == 1 { suspects = runningChapters }
        let shown = running.filter { test in suspects.contains { $0.testTarget == test.module } }
        let unknownModule = running.filter { test in !chapters.contains { $0.testTarget == test.module } }
        let listed = shown + unknownModule
        let text = language.catalog
        let names = listed.prefix(5).map { test in
            let chapter = chapters.first { $0.testTarget == test.module }
            let name =
                chapter.map { text("stop.chapter", ["number": String(format: "%02d", $0.number)]) } ?? test.module
            return text("stop.testLine", ["chapter": name, "test": test.displayName])
        }.joined()
        let more = listed.count > 5 ? text("stop.more", ["count": listed.count - 5]) : ""
        let which = listed.isEmpty ? text("stop.betweenTests") : text("stop.whileRunning") + names + more
        var report: String
        switch ending {
        case .finished:
            return nil
        case .timeLimit(let seconds):
            report = text("stop.timeLimit", ["seconds": seconds]) + which
            report += text("stop.timeLimit.advice", ["cause": text("stop.loopCause")])
        case .memoryLimit(let limit):
            report = text("stop.memoryLimit", ["limit": limit]) + which
            report += text("stop.memoryLimit.advice", ["cause": text("stop.memoryCause")])
        case .crashed(_, let said):
            report = text("stop.crashed") + which
            if !said.isEmpty { report += text("stop.runtimeSaid") + said.map { "  \($0)\n" }.joined() }
        case .endedEarly(let status):
            report = text("stop.endedEarly", ["status": status]) + which
            report += text("stop.endedEarly.advice")
        }
        let waiting = runningChapters.filter { chapter in !suspects.contains(chapter) }
        if !waiting.isEmpty {
            report += text(
                "stop.waiting", ["waiting": numbers(waiting, in: text), "suspects": numbers(suspects, in: text)])
        }
        if chapters.count > 1 {
            let example = (suspects.first ?? runningChapters.first).map { String(format: "%02d", $0.number) } ?? "01"
            report += text("stop.checkAlone", ["number": example])
        } else if !notStarted.isEmpty {
            report += text("stop.notStarted", ["count": notStarted.count])
        }
        return report
    }

    /// "chapter 04", "chapters 01, 02 and 05", in the words of `catalog`.
    static func numbers(_ chapters: [Curriculum.Chapter], in catalog: Catalog = .english) -> String {
        let numbers = chapters.map { String(format: "%02d", $0.number) }
        guard let last = numbers.last else { return catalog("chapters.none") }
        return catalog(
            "chapters.list",
            [
                "count": numbers.count, "last": last, "list": numbers.dropLast().joined(separator: ", "),
            ])
    }
}
