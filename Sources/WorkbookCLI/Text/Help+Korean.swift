/// The Korean `--help` texts. The teacher's commands (`verify`, `student-edition`, `hashes`,
/// `report`, `grade`) keep their English help and output.
extension Help {
    public static let koreanOverview = """
        workbook: Concurrency Workbook의 진행 상황과 그 주변 도구입니다.

        사용법: swift run workbook [명령] [인자] [--lang ko|en]

        학습자 명령:
          list                     챕터 표, 진행 상황, 다음 단계 (기본 명령)
          check [챕터] [--race]    챕터의 테스트를 실행하고 아직 실패하는 것을 설명합니다
          hint [챕터] [n]          챕터의 다음 힌트(또는 힌트 n)를 보여 줍니다
          watch [챕터]             저장할 때마다 챕터를 다시 확인하고, 통과하면 다음으로 넘어갑니다
          reset <챕터>             챕터의 연습 문제를 처음 상태로 되돌립니다 (내 파일은 먼저 백업합니다)
          help [명령]              이 도움말, 또는 명령 하나의 도움말

        교사·관리자 명령 (출력은 영어입니다):
          verify                   교사/CI 검사: 풀이는 통과하고, 연습 문제는 올바른 이유로 실패하는지
          student-edition <dir>    Solutions/를 뺀 워크북 사본을 새 폴더에 만듭니다
          hashes [--update]        테스트의 해시를 검사(또는 기록)합니다
          report [--format F]      모든 챕터를 한 번 실행한 결과를 JSON, JUnit, Markdown으로 냅니다
          grade <dir>...           학생 체크아웃을 이 테스트로 채점해 반 전체 표를 만듭니다

        챕터는 번호(1 또는 01), 폴더(01-Continuations), 모듈(Ch01Continuations)로 지정합니다.
        지정하지 않으면 check와 hint는 지금 진행 중인 챕터(아직 마치지 않은 첫 챕터)를 고릅니다.
        워크북 밖에서는: swift run --package-path <dir> workbook.
        list, check, watch, report, grade는 --time-limit SECONDS(기본 60)보다 오래 걸리거나
        --memory-limit GB(기본 2)보다 메모리를 많이 쓰는 테스트 실행을 멈춥니다.
        언어: --lang ko|en, 없으면 WORKBOOK_LANG, 없으면 LC_ALL / LC_MESSAGES / LANG이 ko로
        시작할 때 한국어, 그 밖에는 영어입니다.
        자세한 내용은 `swift run workbook <명령> --help`를 실행하세요.
        """

    static let koreanLimits = """
        --time-limit SECONDS   이보다 오래 걸리는 테스트 실행을 멈춥니다(기본 \(RunLimits.defaultTimeLimit)).
                               그때 실행 중이던 테스트를 알려 줍니다
        --memory-limit GB      이보다 메모리를 많이 쓰는 테스트 프로세스를 멈춥니다(기본 \(Int(RunLimits.defaultMemoryLimit)), Linux)
        """

    /// The Korean help of a learner's command; nil for the teacher's (their help stays English).
    public static func koreanText(for command: CommandName) -> String? {
        switch command {
        case .list:
            """
            사용법: swift run workbook [list] [--time-limit SECONDS] [--memory-limit GB]

            연습 문제를 빌드하고(`swift test`와 같은 .build를 씁니다) 모든 챕터의 테스트를 한 번
            실행한 뒤, 챕터마다 상태와 진행 막대, 다음에 할 챕터와 실행할 명령을 보여 줍니다.
            상태는 다음과 같습니다:

              완료                 모든 테스트가 통과하고, 연습 문제를 고쳤습니다
              M개 중 N개 실패      챕터의 테스트 M개 중 N개가 아직 실패합니다
              시작 전              연습 문제가 처음 받은 그대로입니다(테스트 결과와 상관없이)
              테스트 변경됨        테스트 파일, Sources/SimulatedWorld, Sources/WorkbookTesting,
                                   Package.swift가 바뀌어서 결과가 인정되지 않습니다. 무엇이
                                   바뀌었고 어떻게 되돌리는지 알려 줍니다
              컴파일 안 됨         컴파일러가 챕터의 코드를 거부합니다. 모든 챕터가 함께 빌드되므로
                                   컴파일될 때까지 어떤 챕터도 다시 확인할 수 없습니다
              … (마지막 기록)      빌드에 실패했을 때: 마지막으로 빌드된 실행의 결과입니다
                                   ("마지막 기록, 이후 수정됨": 그 뒤로 연습 문제를 고쳤습니다)
              결과 없음            챕터의 테스트가 실행되지 않았습니다(또는 한도에서 멈췄습니다)

            \(koreanLimits)
            """
        case .check:
            """
            사용법: swift run workbook check [챕터] [--race] [--time-limit SECONDS] [--memory-limit GB]

            챕터의 테스트를 실행합니다(챕터를 지정하지 않으면 모든 챕터를 실행하고, 아직 마치지 않은
            첫 챕터를 보고합니다). 실패하는 테스트마다 무엇이 잘못됐는지 말로 설명하고, 힌트(그
            실패를 다루는 힌트가 있으면 그것, 없으면 아직 보지 않은 첫 힌트)와 읽을 본문의 절을
            알려 줍니다. 테스트가 하나라도 실패하면 1로, 챕터를 마치면 0으로 끝납니다.
            `swift test --filter Ch01ContinuationsTests`도 같은 빌드에서 같은 테스트를 실행하고
            원래 출력을 보여 줍니다. 무한 루프에 빠지거나 메모리를 먹는 테스트 실행은 한도에서
            멈추고, 실행 중이던 테스트를 알려 줍니다.

            --race   대신 Thread Sanitizer로 챕터의 테스트를 실행하고, 찾은 데이터 경쟁을 설명합니다
                     (출력은 영어입니다). .build-race에 따로 빌드합니다(처음에는 몇 분 걸립니다).
                     데이터 경쟁을 찾으면 1로 끝납니다.

            \(koreanLimits)
            """
        case .hint:
            """
            사용법: swift run workbook hint [챕터] [n]

            챕터(지정하지 않으면 진행 중인 챕터)의 다음 힌트를 가장 부드러운 것부터 보여 줍니다.
            다시 실행하면 그다음 힌트가 나옵니다. n을 주면 힌트 n을 보여 줍니다. 어떤 힌트를
            봤는지(여기서든 `check`에서든)는 .workbook/에 기록합니다(git은 무시합니다).
            """
        case .watch:
            """
            사용법: swift run workbook watch [챕터] [--time-limit SECONDS] [--memory-limit GB]

            챕터(기본은 아직 마치지 않은 첫 챕터)를 확인하고, 그 챕터의 파일을 저장할 때마다
            다시 확인합니다. 통과하면 그렇다고 알리고 아직 마치지 않은 다음 챕터로 넘어갑니다.
            Ctrl-C로 끝냅니다.

            \(koreanLimits)
            """
        case .reset:
            """
            사용법: swift run workbook reset <챕터>

            챕터의 연습 문제 파일을 처음 상태로 되돌립니다. 지금 파일은 먼저
            .workbook/backups/<챕터>-<시각>/에 복사하므로(git은 무시합니다) 잃는 것은 없습니다.
            원본은 git 기록(Chapters/test-hashes.json에 기록된 해시와 파일이 일치하는 가장 최근
            커밋이므로 내 커밋은 해당하지 않습니다)에서, 기록이 없는 체크아웃에서는 학생판에 들어
            있는 Pristine/ 사본에서 가져옵니다.
            """
        case .help:
            """
            사용법: swift run workbook help [명령]

            전체 도움말, 또는 명령 하나의 도움말을 보여 줍니다(`<명령> --help`와 같습니다).
            """
        case .verify, .studentEdition, .hashes, .report, .grade:
            nil
        }
    }
}
