import WorkbookCurriculum

extension Strings {
    /// The Korean texts (합니다체; terms as in Chapters/glossary.ko.md).
    public static let korean = Strings(
        language: .korean,
        tableHeader: ["#", "챕터", "상태", "개념"],
        status: { koreanLabel($0) },
        chaptersDone: { "챕터 \($1)개 중 \($0)개 완료" },
        lastKnownOfThem: { " (그중 \($0)개는 마지막 기록)" },
        lastKnownNote: "(마지막 기록)으로 표시된 상태는 마지막으로 빌드에 성공한 실행의 결과입니다.\n",
        allChaptersDone: { "챕터 \($0)개를 모두 마쳤습니다. 수고하셨습니다!\n" },
        nextStep: { number, title, reading, testsModified in
            var text = "다음: 챕터 \(number), \(title)\n"
            if testsModified {
                text += "  결과가 달린 파일이 바뀌어서(위 참고) 이 챕터를 마칠 수 없습니다. 먼저 원래대로 되돌리세요.\n"
            }
            text += "  읽기:  \(reading)\n"
            text += "  실행:  swift run workbook check \(number)\n"
            text += "  저장할 때마다 다시 확인:  swift run workbook watch \(number)\n"
            return text
        },
        checkHeader: { "챕터 \($0): \($1)\n상태: \($2)\n\n" },
        allTestsPass: { "✓ 테스트 \($0)개가 모두 통과합니다. 챕터 \($1)을 마쳤습니다.\n" },
        filesDiffer: "다음 파일이 기록된 것과 달라서 이 챕터의 결과는 인정되지 않습니다:\n",
        putThemBack: "원래대로 되돌린 뒤 다시 확인하세요.\n",
        compilerErrors: "컴파일러 오류:\n",
        fixCompileErrorsFirst: {
            "\n이것부터 고치세요: 연습 문제가 컴파일되어야 테스트를 실행할 수 있습니다(모든 챕터가 함께 빌드됩니다).\n"
                + "또는 원래 코드로 되돌리세요:  swift run workbook reset \($0)\n"
        },
        noResult: { "결과 없음: \(koreanReason($0)).\n" },
        processStoppedInTest: "이 테스트를 실행하던 중 테스트 프로세스가 멈췄습니다(크래시일 수 있습니다)",
        checkHint: { "힌트 \($0)/\($1): \($2)" },
        moreHints: { "  (다음 힌트: swift run workbook hint \($0))\n" },
        readLine: { "읽기: \($0)\n" },
        sectionLine: { "  \"\($0)\" 절\n" },
        untranslatedLesson: "(이 교훈은 아직 한국어로 옮기지 않아 영어로 보여 드립니다)",
        allChaptersDoneCheck: {
            "챕터 \($0)개를 모두 마쳤습니다. 다시 확인하려면 챕터를 지정하세요: swift run workbook check 01\n"
        },
        raceSuggestion: {
            "\n이 챕터는 공유 상태를 다루는데, 데이터 경쟁은 테스트를 실패시키지 않습니다. 데이터 경쟁을 찾아보려면: "
                + "swift run workbook check \($0) --race (Thread Sanitizer로 따로 빌드합니다)\n"
        },
        hintsHeading: "힌트",
        hintLine: { "챕터 \($2) 힌트 \($0)/\($1): \($3)" },
        nextHint: { "  (다음 힌트: swift run workbook hint \($0))\n" },
        lastHintSeeReadme: "  마지막 힌트였습니다. 챕터 본문의 \"힌트\" 절에 전체 풀이 과정이 있습니다.\n",
        lastHint: "  마지막 힌트였습니다.\n",
        noHints: { "챕터 \($0)에는 힌트가 없습니다.\n" },
        watchChecking: { "\n── 챕터 \($0) 확인 중 ──\n" },
        watchPasses: { "챕터 \($0)이 통과합니다. 아직 마치지 않은 다음 챕터로 넘어갑니다…\n" },
        watchNoLongerPasses: { "챕터 \($0)이 바뀌어 더 이상 통과하지 않습니다. 이 챕터에 머뭅니다.\n" },
        watchWatching: { "\($0)/를 지켜보고 있습니다. 파일을 저장하면 다시 확인합니다(끝내려면 Ctrl-C).\n" },
        watchChanged: { "↻ \($0) 파일이 바뀌었습니다. 챕터 \($1)을 다시 확인합니다…\n" },
        watchAllDone: { "챕터 \($0)개를 모두 마쳤습니다. 더 지켜볼 챕터가 없습니다.\n" },
        tamperHeader: "결과가 달린 파일이 바뀌어서, 영향을 받는 챕터는 마칠 수 없습니다:\n",
        tamperSentence: { koreanSentence($0) },
        tamperUndoLead: { finding in
            switch (finding.area, finding.change) {
            case (.package, .added), (.unrecordedChapter, _): "해결:"
            case (_, .deleted): "복원:"
            case (_, .added): "삭제:"
            case (_, .edited): "되돌리기:"
            }
        },
        maintainerRecords: "관리자가 `swift run workbook hashes --update`로 기록해야 합니다",
        copyBackFromFreshCopy: { "워크북을 새로 받아 \($0)을 복사해 오세요" },
        culprit: { numbers in
            numbers.isEmpty ? "워크북" : "챕터 " + numbers.joined(separator: ", ")
        },
        buildFailedNoChapter: "빌드에 실패해서 어떤 챕터도 다시 확인하지 못했습니다.",
        buildSummary: { culprit, otherFiles, _, checking, checkingIsBroken in
            var subject = culprit
            if !otherFiles.isEmpty { subject += "(\(otherFiles.prefix(3).joined(separator: ", "))에 오류)" }
            let what: String
            if checkingIsBroken {
                what = "이 챕터의 테스트를 실행할 수 없습니다"
            } else if let checking {
                what = "챕터 \(checking)도 다시 확인하지 못했습니다"
            } else {
                what = "어떤 챕터도 다시 확인하지 못했습니다"
            }
            return "\(subject)이(가) 컴파일되지 않아 \(what). 모든 챕터가 함께 빌드되므로 컴파일 오류 하나가 모든 테스트를 멈춥니다."
        },
        buildNextStepNoChapter: { files in
            let location = files.isEmpty ? "" : " \(files.prefix(3).joined(separator: ", "))의"
            return "다음: 워크북이 다시 빌드되게 하세요. 아래\(location) 오류를 고치거나 그 수정을 되돌리세요.\n"
        },
        buildNextStep: { number, title, reading in
            "다음: 챕터 \(number), \(title): 컴파일되지 않습니다.\n"
                + "  아래 오류를 고치거나 원래 코드로 되돌리세요:  swift run workbook reset \(number)\n"
                + "  읽기:  \(reading)\n"
        },
        buildLogTail: "빌드에 실패했습니다. 출력의 마지막 부분:\n",
        teachesError: { "챕터 \($0)에서 이 오류를 다룹니다: \($2)의 '\($1)' 절을 보세요." },
        compilerExplains: { "→ 컴파일러의 [#\($0)] 설명: \($1)\n" },
        moreErrors: { "\n… 오류가 \($0)개 더 있습니다.\n" },
        noWorkbookHere:
            "workbook: 여기에는 워크북이 없습니다. 워크북 폴더(Package.swift와 Chapters/curriculum.json이 있는 폴더) 안에서 실행하세요\n",
        usingWorkbookAt: { "\($0)의 워크북을 사용합니다\n" },
        stopped: "\n중단했습니다.\n",
        helpOverview: Help.koreanOverview,
        helpText: { Help.koreanText(for: $0) }
    )

    static func koreanLabel(_ status: ChapterStatus) -> String {
        switch status {
        case .done: "완료"
        case .failing(let failed, let total): "\(total)개 중 \(failed)개 실패"
        case .notStarted: "시작 전"
        case .testsModified: "테스트 변경됨"
        case .doesNotCompile: "컴파일 안 됨"
        case .lastKnown(let status, let editedSince):
            koreanLabel(status) + (editedSince ? " (마지막 기록, 이후 수정됨)" : " (마지막 기록)")
        case .noResult: "결과 없음"
        }
    }

    /// The reasons ``ChapterStatus/of(_:run:tamper:compileErrors:)`` gives, in Korean.
    static func koreanReason(_ reason: String) -> String {
        switch reason {
        case "the workbook did not build": "워크북이 빌드되지 않았습니다"
        case "none of its tests ran": "이 챕터의 테스트가 하나도 실행되지 않았습니다"
        case "the test run stopped before this chapter finished": "이 챕터가 끝나기 전에 테스트 실행이 멈췄습니다"
        case "the test run was stopped before its tests finished": "이 챕터의 테스트가 끝나기 전에 테스트 실행이 멈췄습니다"
        case "its files kept changing while its tests ran; check again":
            "테스트가 실행되는 동안 파일이 계속 바뀌었습니다. 다시 확인하세요"
        default: reason
        }
    }

    static func koreanSentence(_ finding: TamperFindings.Finding) -> String {
        let path = finding.path
        let change =
            switch finding.change {
            case .edited: "수정되었습니다"
            case .deleted: "삭제되었습니다"
            case .added: "추가되었습니다"
            }
        return switch (finding.area, finding.change) {
        case (.package, .deleted): "Package.swift가 삭제되어 아무것도 빌드할 수 없습니다."
        case (.package, .added): "Package.swift의 지문이 \(PackageLayout.hashesPath)에 기록되어 있지 않습니다."
        case (.package, _):
            "Package.swift가 수정되었습니다. 테스트를 무엇에 대해 빌드할지 정하는 파일이라, 원래와 다른 동안에는 "
                + "어떤 챕터의 결과도 인정되지 않습니다."
        case (.tests(let chapter), .added): "챕터 \(chapter.prefix(2))의 테스트에 파일이 추가되었습니다: \(path)."
        case (.tests(let chapter), _): "챕터 \(chapter.prefix(2))의 테스트 파일 \(path)이(가) \(change)."
        case (.simulatedWorld, .added): "시뮬레이션 세계에 파일이 추가되었습니다: \(path)."
        case (.simulatedWorld, _):
            "시뮬레이션 세계가 \(change): \(path). 테스트가 이것을 조종하므로 어떤 챕터의 결과도 인정되지 않습니다."
        case (.instruments, .added): "테스트 도구에 파일이 추가되었습니다: \(path)."
        case (.instruments, _):
            "테스트 도구가 \(change): \(path). 모든 테스트가 이 도구로 측정하므로 어떤 챕터의 결과도 인정되지 않습니다."
        case (.unrecordedChapter(let chapter), _):
            "챕터 \(chapter)의 지문이 \(PackageLayout.hashesPath)에 기록되어 있지 않습니다."
        }
    }
}
