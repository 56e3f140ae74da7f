import Foundation

/// The fixed lines the workbook's own instruments write into failure messages (the crash
/// diagnosis, the bounded wait, the Swift 6 check, the run's limits), in another language.
///
/// A template is one whole line, its indentation aside; `\(name)` stands for any text, which the
/// translation repeats. Lines no template matches (what a chapter's test observed) stay as recorded.
public struct DetailLines: Sendable {
    /// English template → translated template.
    public var templates: [(english: String, translated: String)]

    public init(_ templates: [(english: String, translated: String)]) {
        self.templates = templates
    }

    /// `line` translated, with its indentation, or nil when no template matches it.
    public func translate(_ line: String) -> String? {
        let indent = String(line.prefix { $0 == " " })
        let content = String(line.dropFirst(indent.count))
        for template in templates {
            if let values = Self.match(template.english, content) {
                return indent + LessonTranslator.fill(template.translated, with: values)
            }
        }
        return nil
    }

    /// The values of `template`'s `\(name)` placeholders when `line` is the whole template.
    static func match(_ template: String, _ line: String) -> [String: String]? {
        LessonTranslator.values(of: template, in: line, followedBy: "$")
    }

    /// The Korean lines (합니다체; terms as in Chapters/glossary.ko.md). The English side is
    /// what Sources/WorkbookTesting and ``RunAccounting`` write, word for word;
    /// KoreanEditionTests checks that each one still matches.
    public static let korean = DetailLines([
        // Swift6Check
        ("The Swift 6 compiler says:", "Swift 6 컴파일러의 진단 메시지:"),
        // CrashDiagnosis
        (
            "The process exited (through exit(…) or a return from main) before the scenario finished.",
            "시나리오가 끝나기 전에 프로세스가 종료되었습니다(exit(…) 호출이나 main의 반환으로)."
        ),
        (
            "The process trapped: a continuation was resumed a second time.",
            "프로세스가 트랩으로 멈췄습니다: 컨티뉴에이션이 두 번째로 재개되었습니다."
        ),
        (
            "The process trapped: a force unwrap (!) found nil.",
            "프로세스가 트랩으로 멈췄습니다: 강제 언래핑(!)한 값이 nil이었습니다."
        ),
        ("The process ran out of memory.", "프로세스의 메모리가 바닥났습니다."),
        ("The process trapped on a fatal error.", "프로세스가 치명적 오류(fatal error)로 트랩에 걸려 멈췄습니다."),
        ("The process did not exit cleanly.", "프로세스가 정상적으로 종료되지 않았습니다."),
        ("The runtime said:", "런타임의 메시지:"),
        ("The last lines the process wrote:", "프로세스가 마지막으로 출력한 줄:"),
        // BoundedWait (a Duration prints as "0.5 seconds")
        (
            "The awaiting task was still suspended after \\(limit) seconds; nothing resumed it.",
            "기다리던 태스크가 \\(limit)초 뒤에도 일시 중단된 채였습니다. 아무것도 재개하지 않았습니다."
        ),
        (
            "The awaiting task was still suspended after \\(limit); nothing resumed it.",
            "기다리던 태스크가 \\(limit) 뒤에도 일시 중단된 채였습니다. 아무것도 재개하지 않았습니다."
        ),
        (
            "Swift reported a continuation destroyed without being resumed, and the awaiting task was "
                + "still suspended: nothing can resume it now.",
            "Swift가 재개되지 않은 채 해제된 컨티뉴에이션을 보고했고, 기다리던 태스크는 일시 중단된 채였습니다. "
                + "이제 아무것도 그것을 재개할 수 없습니다."
        ),
        // RunAccounting: the tests a stopped run left unfinished
        (
            "this test was still running when the test run passed its time limit of \\(seconds) seconds, "
                + "so it was stopped. Most likely the exercise is in a loop that never ends or never awaits.",
            "테스트 실행이 시간 제한 \\(seconds)초를 넘겼을 때 이 테스트가 아직 실행 중이어서 멈췄습니다. "
                + "연습 문제가 끝나지 않거나 `await` 없이 도는 루프에 빠졌을 가능성이 큽니다."
        ),
        (
            "this test was running when the exercise used more than \\(limit) of memory, so the test "
                + "process was stopped. Most likely a loop keeps adding to an array, a string or a buffer.",
            "이 테스트가 실행되는 동안 연습 문제가 메모리를 \\(limit) 넘게 써서 테스트 프로세스를 멈췄습니다. "
                + "루프가 배열, 문자열, 버퍼에 계속 덧붙이고 있을 가능성이 큽니다."
        ),
        (
            "the test process crashed while this test was running (signal \\(signal)), so the test did not finish.",
            "이 테스트가 실행되는 동안 테스트 프로세스가 크래시해서(시그널 \\(signal)) 테스트가 끝나지 않았습니다."
        ),
        (
            "the test process crashed while this test was running, so the test did not finish.",
            "이 테스트가 실행되는 동안 테스트 프로세스가 크래시해서 테스트가 끝나지 않았습니다."
        ),
        (
            "the test process ended while this test was running (exit status \\(status)), before the "
                + "test finished: something in the exercise ended the process, such as a call to exit(). "
                + "A test that does not finish does not pass.",
            "테스트가 끝나기 전에, 이 테스트가 실행되는 동안 테스트 프로세스가 끝났습니다(종료 상태 \\(status)). "
                + "연습 문제의 무언가가 프로세스를 끝냈습니다. 예를 들면 exit() 호출입니다. 끝나지 않은 테스트는 통과하지 못합니다."
        ),
        (
            "the exercise used more than \\(limit) of memory in a child process this test started, so that "
                + "process was stopped. " + RunAccounting.memoryCause,
            "이 테스트가 시작한 자식 프로세스에서 연습 문제가 메모리를 \\(limit) 넘게 써서 그 프로세스를 멈췄습니다. "
                + RunAccounting.koreanMemoryCause
        ),
    ])
}
