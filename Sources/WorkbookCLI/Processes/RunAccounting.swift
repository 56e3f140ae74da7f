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

    /// Where the limits are explained to the learner.
    public static let readmeSection = "\"Time and memory limits\" in the workbook's README.md"

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
                run.tests[index].issues = [
                    "the exercise used more than \(limits.memoryLimitText) of memory in a child process this test "
                        + "started, so that process was stopped. " + memoryCause
                ]
            }
            guard run.tests[index].started, !run.tests[index].ended, let message = message(for: ending) else {
                continue
            }
            run.tests[index].issues.append(message)
        }
    }

    static let loopCause =
        "The usual cause is a loop that never ends or never awaits: a `while` whose condition nothing "
        + "changes, or a long loop without an `await` that keeps a thread the rest of the test needs. "
        + "See \(RunEnding.readmeSection)."
    static let memoryCause =
        "The usual cause is a loop that keeps adding to an array, a string or a buffer and never ends. "
        + "See \(RunEnding.readmeSection)."

    /// What a test left unfinished by `ending` records.
    static func message(for ending: RunEnding) -> String? {
        switch ending {
        case .finished:
            return nil
        case .timeLimit(let seconds):
            return "this test was still running when the test run passed its time limit of \(seconds) seconds, "
                + "so it was stopped. Most likely the exercise is in a loop that never ends or never awaits."
        case .memoryLimit(let limit):
            return "this test was running when the exercise used more than \(limit) of memory, so the test "
                + "process was stopped. Most likely a loop keeps adding to an array, a string or a buffer."
        case .crashed(let signal, let said):
            var text = "the test process crashed while this test was running"
            if let signal { text += " (signal \(signal))" }
            text += ", so the test did not finish."
            if !said.isEmpty { text += "\nThe runtime said:\n" + said.map { "  " + $0 }.joined(separator: "\n") }
            return text
        case .endedEarly(let status):
            return "the test process ended while this test was running (exit status \(status)), before the "
                + "test finished: something in the exercise ended the process, such as a call to exit(). "
                + "A test that does not finish does not pass."
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
        if language == .korean {
            return koreanReport(
                ending: ending, listed: listed, notStarted: notStarted.count, chapters: chapters,
                runningChapters: runningChapters, suspects: suspects)
        }
        let names = listed.prefix(5).map { test in
            let chapter = chapters.first { $0.testTarget == test.module }
            return "  \(chapter.map(number) ?? test.module): \"\(test.displayName)\"\n"
        }.joined()
        let more = listed.count > 5 ? "  and \(listed.count - 5) more\n" : ""
        let which = listed.isEmpty ? ", between two tests.\n" : " while these tests were running:\n" + names + more
        var text: String
        switch ending {
        case .finished:
            return nil
        case .timeLimit(let seconds):
            text = "The test run was stopped: it passed its time limit of \(seconds) seconds" + which
            text += loopCause + " To allow more time: --time-limit SECONDS.\n"
        case .memoryLimit(let limit):
            text = "The test run was stopped: the exercise used more than \(limit) of memory" + which
            text += memoryCause + " To change the limit: --memory-limit GB.\n"
        case .crashed(_, let said):
            text = "The test process crashed" + which
            if !said.isEmpty { text += "The runtime said:\n" + said.map { "  \($0)\n" }.joined() }
        case .endedEarly(let status):
            text = "The test run ended early: the test process ended (exit status \(status))" + which
            text += "Something in the exercise ended the process, such as a call to exit(). "
            text += "Tests that did not finish count as failing, never as passing.\n"
        }
        let waiting = runningChapters.filter { chapter in !suspects.contains(chapter) }
        if !waiting.isEmpty {
            text += "Tests of \(numbers(waiting)) were running too, most likely waiting for \(numbers(suspects)): "
            text += "their exercises are as they were handed out.\n"
        }
        if chapters.count > 1 {
            text += "Chapters whose tests had all finished keep their results; "
            text += "check the others on their own, for example: swift run workbook check "
            text += (suspects.first ?? runningChapters.first).map { String(format: "%02d", $0.number) } ?? "01"
            text += "\n"
        } else if !notStarted.isEmpty {
            text += "\(notStarted.count) of the chapter's tests had not started.\n"
        }
        return text
    }

    /// ``report(_:ending:chapters:untouched:language:)`` in Korean.
    static func koreanReport(
        ending: RunEnding, listed: [TestRun.TestResult], notStarted: Int, chapters: [Curriculum.Chapter],
        runningChapters: [Curriculum.Chapter], suspects: [Curriculum.Chapter]
    ) -> String? {
        let names = listed.prefix(5).map { test in
            let chapter = chapters.first { $0.testTarget == test.module }
            return
                "  \(chapter.map { "챕터 " + String(format: "%02d", $0.number) } ?? test.module): \"\(test.displayName)\"\n"
        }.joined()
        let more = listed.count > 5 ? "  외 \(listed.count - 5)개\n" : ""
        let which = listed.isEmpty ? " 테스트와 테스트 사이였습니다.\n" : " 그때 실행 중이던 테스트:\n" + names + more
        var text: String
        switch ending {
        case .finished:
            return nil
        case .timeLimit(let seconds):
            text = "테스트 실행을 멈췄습니다: 시간 제한 \(seconds)초를 넘겼습니다." + which
            text += koreanLoopCause + " 시간을 더 주려면: --time-limit SECONDS.\n"
        case .memoryLimit(let limit):
            text = "테스트 실행을 멈췄습니다: 연습 문제가 메모리를 \(limit) 넘게 썼습니다." + which
            text += koreanMemoryCause + " 제한을 바꾸려면: --memory-limit GB.\n"
        case .crashed(_, let said):
            text = "테스트 프로세스가 크래시했습니다." + which
            if !said.isEmpty { text += "런타임의 메시지:\n" + said.map { "  \($0)\n" }.joined() }
        case .endedEarly(let status):
            text = "테스트 실행이 일찍 끝났습니다: 테스트 프로세스가 끝났습니다(종료 상태 \(status))." + which
            text += "연습 문제의 무언가가 프로세스를 끝냈습니다. 예를 들면 exit() 호출입니다. "
            text += "끝나지 않은 테스트는 통과가 아니라 언제나 실패로 셉니다.\n"
        }
        let waiting = runningChapters.filter { chapter in !suspects.contains(chapter) }
        if !waiting.isEmpty {
            text += "\(koreanNumbers(waiting))의 테스트도 실행 중이었지만, 아마 \(koreanNumbers(suspects))을(를) "
            text += "기다리고 있었을 것입니다. 그 연습 문제는 처음 받은 그대로입니다.\n"
        }
        if chapters.count > 1 {
            text += "테스트가 모두 끝난 챕터는 결과를 그대로 유지합니다. "
            text += "나머지는 하나씩 따로 확인하세요. 예: swift run workbook check "
            text += (suspects.first ?? runningChapters.first).map { String(format: "%02d", $0.number) } ?? "01"
            text += "\n"
        } else if notStarted > 0 {
            text += "이 챕터의 테스트 \(notStarted)개는 시작하지 못했습니다.\n"
        }
        return text
    }

    /// Where the limits are explained, for a Korean learner: the twin of `readmeSection`.
    static let koreanReadmeSection = "워크북 README.ko.md의 \"시간과 메모리 제한\" 절"
    static let koreanLoopCause =
        "흔한 원인은 끝나지 않거나 `await` 없이 도는 루프입니다. 아무것도 조건을 바꾸지 않는 `while`이나, "
        + "`await` 없이 오래 돌면서 테스트의 나머지가 필요로 하는 스레드를 붙잡는 루프가 그렇습니다. "
        + "\(koreanReadmeSection)을 보세요."
    static let koreanMemoryCause =
        "흔한 원인은 배열, 문자열, 버퍼에 계속 덧붙이기만 하고 끝나지 않는 루프입니다. \(koreanReadmeSection)을 보세요."

    /// "챕터 04", "챕터 01, 02, 05".
    static func koreanNumbers(_ chapters: [Curriculum.Chapter]) -> String {
        chapters.isEmpty ? "챕터 없음" : "챕터 " + chapters.map { String(format: "%02d", $0.number) }.joined(separator: ", ")
    }

    static func number(_ chapter: Curriculum.Chapter) -> String {
        "chapter " + String(format: "%02d", chapter.number)
    }

    /// "chapter 04", "chapters 01, 02 and 05".
    static func numbers(_ chapters: [Curriculum.Chapter]) -> String {
        let numbers = chapters.map { String(format: "%02d", $0.number) }
        guard let last = numbers.last else { return "no chapter" }
        if numbers.count == 1 { return "chapter " + last }
        return "chapters " + numbers.dropLast().joined(separator: ", ") + " and " + last
    }
}
