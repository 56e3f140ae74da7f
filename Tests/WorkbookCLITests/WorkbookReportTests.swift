import Foundation
import Testing
import WorkbookCLI
import WorkbookCurriculum

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A report of the captured learner run (chapters 01 and 02 unfixed, 03 never run), with
/// chapter 01's exercise edited, chapter 02 untouched and a tampered test in chapter 03.
private func sampleReport(tampered: Bool = true) throws -> WorkbookReport {
    var run = LearnerRun(log: "", run: TestRun.parse(eventStream: try Fixture.learnerRun))
    run.chapterCount = 3
    var tamper = TamperReport()
    tamper.untouchedExercises = [Fixture.second.folder]
    if tampered {
        tamper.testChanges = [Fixture.third.folder: ["Tests/Ch03LaterTests/LaterTests.swift"]]
        tamper.recordedHashes = ["Tests/Ch03LaterTests/LaterTests.swift": "abc"]
    }
    let statuses = run.statuses(of: Fixture.curriculum.chapters, curriculum: Fixture.curriculum, tamper: tamper)
    let findings = TamperFindings.from(tamper, curriculum: Fixture.curriculum) { _, _ in "git checkout HEAD -- it" }
    return WorkbookReport.make(
        curriculum: Fixture.curriculum, statuses: statuses, run: run, tamper: findings,
        workbook: .init(title: "Concurrency Workbook", commit: nil, testHashes: "55f9"),
        toolchain: "Swift version 6.3.1 (swift-6.3.1-RELEASE)", generatedAt: Date(timeIntervalSince1970: 0))
}

/// Every key path of a JSON value: `chapters[].tests.total`, …
private func keyPaths(_ value: Any, prefix: String = "") -> Set<String> {
    if let object = value as? [String: Any] {
        var paths: Set<String> = []
        for (key, child) in object {
            let path = prefix.isEmpty ? key : prefix + "." + key
            paths.insert(path)
            paths.formUnion(keyPaths(child, prefix: path))
        }
        return paths
    }
    if let array = value as? [Any] {
        return array.reduce(into: Set<String>()) { $0.formUnion(keyPaths($1, prefix: prefix + "[]")) }
    }
    return []
}

private func jsonObject(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
}

@Suite("workbook report: the JSON schema and JUnit")
struct WorkbookReportTests {
    /// Schema version 1: every key path a report has. Renaming or redefining one is a new schema
    /// version; adding one is not (`student` was added, `null` outside `grade`).
    static let schemaV1: Set<String> = [
        "schemaVersion", "kind", "generatedAt", "toolchain", "student",
        "workbook", "workbook.title", "workbook.commit", "workbook.testHashes",
        "run", "run.ending", "run.message",
        "summary", "summary.chapterCount", "summary.chaptersDone", "summary.currentChapter", "summary.tampered",
        "tamperFindings", "tamperFindings[].path", "tamperFindings[].area", "tamperFindings[].chapter",
        "tamperFindings[].change", "tamperFindings[].message",
        "chapters", "chapters[].number", "chapters[].folder", "chapters[].title", "chapters[].status",
        "chapters[].label", "chapters[].reason", "chapters[].tests", "chapters[].tests.total",
        "chapters[].tests.passed", "chapters[].tests.failed", "chapters[].tests.notRun",
        "chapters[].failingLessons", "chapters[].failingLessons[].test", "chapters[].failingLessons[].lesson",
        "chapters[].failingLessons[].section", "chapters[].failingLessons[].reading",
        "chapters[].compileErrors", "chapters[].tamperedFiles", "chapters[].testResults",
        "chapters[].testResults[].name", "chapters[].testResults[].id", "chapters[].testResults[].result",
        "chapters[].testResults[].messages",
    ]

    @Test("The JSON has schema version 1 and exactly its keys, with null for what doesn't apply")
    func schemaIsStable() throws {
        let report = try sampleReport()
        #expect(report.schemaVersion == 1 && WorkbookReport.currentSchemaVersion == 1)
        let json = try report.json()
        #expect(keyPaths(try jsonObject(json)) == WorkbookReportTests.schemaV1)
        #expect(json.contains(#""commit" : null"#), "a value that doesn't apply is null, not left out")
        #expect(try WorkbookReport.read(Data(json.utf8)) == report, "the JSON reads back as the same report")
        let other = json.replacingOccurrences(of: #""schemaVersion" : 1"#, with: #""schemaVersion" : 2"#)
        #expect(throws: UsageError.self) { try WorkbookReport.read(Data(other.utf8)) }
    }

    @Test(
        "The README documents exactly the schema's keys, in an example that is a valid report",
        .enabled(if: TeachersReadme.exists, "a student edition's README is for students"))
    func readmeDocumentsTheSchema() throws {
        let example = try TeachersReadme.block(
            after: "### The report's JSON schema", language: "json", in: try TeachersReadme.text)
        #expect(keyPaths(try jsonObject(example)) == WorkbookReportTests.schemaV1)
        #expect(try WorkbookReport.read(Data(example.utf8)).schemaVersion == 1)
    }

    @Test("The report's answers: statuses, counts, lessons with their sections, tampering, the current chapter")
    func answers() throws {
        let report = try sampleReport()
        #expect(report.chapters.map(\.status) == ["failing", "notStarted", "testsModified"])
        let first = report.chapters[0]
        #expect(first.label == "failing 2 of 4")
        #expect(first.tests == .init(total: 4, passed: 2, failed: 2, notRun: 0))
        #expect(first.failingLessons.count == 2)
        #expect(first.failingLessons.allSatisfy { $0.section != nil && $0.reading == Fixture.first.readmePath })
        #expect(first.failingLessons.allSatisfy { !$0.lesson.contains(" — see '") }, "the README pointer is taken out")
        #expect(report.chapters[2].tamperedFiles == ["Tests/Ch03LaterTests/LaterTests.swift"])
        #expect(
            report.summary
                == .init(chapterCount: 3, chaptersDone: 0, currentChapter: "01-Continuations", tampered: true))
        #expect(report.tamperFindings.map(\.area) == ["tests"])
        #expect(report.tamperFindings.first?.chapter == "03-Later")
        #expect(report.run == .init(ending: "finished", message: nil))
        #expect(report.generatedAt == "1970-01-01T00:00:00Z")

        let broken = WorkbookReport.make(
            curriculum: Fixture.curriculum, statuses: [:], run: LearnerRun(log: "error: nope", run: nil), tamper: nil,
            workbook: .init(title: "T", commit: nil, testHashes: nil), toolchain: nil)
        #expect(broken.run.ending == "buildFailed")
        #expect(broken.chapters.allSatisfy { $0.status == "noResult" })
        #expect(broken.summary.chaptersDone == 0 && !broken.summary.tampered)
    }

    @Test("--format junit is valid JUnit XML: one test case per chapter test, failures carry the lesson")
    func junitParses() throws {
        var report = try sampleReport()
        // Characters XML must escape, and one it forbids, in a lesson.
        report.chapters[0].testResults[1].messages = [
            "a <b> & \"c\" 'd' \u{1}e — see 'S' in Chapters/01-Continuations/README.md"
        ]
        let xml = JUnitReport.render(report)
        let reader = JUnitReader()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = reader
        #expect(parser.parse(), "not well-formed: \(String(describing: parser.parserError))")
        #expect(reader.elements.first == "testsuites")
        #expect(reader.suites == report.chapters.map(\.folder))
        let tests = report.chapters.map(\.testResults.count).reduce(0, +)
        // Plus one `chapter status` case for the tampered chapter 03.
        #expect(reader.testCases == tests + 1)
        #expect(reader.attributes["testsuites"]?["tests"] == String(tests + 1))
        let failed = report.chapters.flatMap(\.testResults).filter { $0.result == "failed" }.count
        #expect(reader.failures.count == failed + 1)
        #expect(reader.attributes["testsuites"]?["failures"] == String(failed + 1))
        #expect(
            reader.failures.contains {
                $0.contains("a <b> & \"c\" 'd' ?e\nRead: Chapters/01-Continuations/README.md, section \"S\"")
            })
        #expect(reader.failures.contains { $0.contains("Tests/Ch03LaterTests/LaterTests.swift") })
    }

    @Test("The Markdown table has a row per chapter and names the tampering")
    func markdown() throws {
        let text = try sampleReport().markdown()
        #expect(text.hasPrefix("## Concurrency Workbook: 0/3 chapters done\n"))
        #expect(text.contains("| 01 | Continuations | failing 2 of 4 | 2/4 |\n"))
        #expect(text.contains("| 03 | Later | tests modified | — |\n"))
        #expect(text.contains("Chapter 03's test file Tests/Ch03LaterTests/LaterTests.swift was edited."))
        #expect(!(try sampleReport(tampered: false).markdown()).contains("were changed"))
    }

    @Test("The options of report and grade")
    func options() throws {
        #expect(try Command.parse(["report"]) == .report(ReportOptions()))
        #expect(
            try Command.parse(["report", "--format", "junit", "--output=r.xml", "--from", "r.json"])
                == .report(ReportOptions(format: .junit, output: "r.xml", from: "r.json")))
        #expect(try Command.parse(["report", "--fail-if-tampered"]) == .report(ReportOptions(failIfTampered: true)))
        #expect(
            try Command.parse(["grade", "a", "b", "--output", "out", "--allow-root"])
                == .grade(
                    GradeOptions(directories: ["a", "b"], output: "out", allowRoot: true)))
        for bad in [
            ["report", "--format", "yaml"], ["report", "extra"], ["report", "--output"], ["grade"],
            ["grade", "--fast", "a"],
        ] {
            #expect(throws: UsageError.self, "\(bad)") { try Command.parse(bad) }
        }
        #expect(ClassGrading.refusal(userID: 0, allowRoot: false)?.contains("refuses to run as root") == true)
        #expect(ClassGrading.refusal(userID: 0, allowRoot: true) == nil)
        #expect(ClassGrading.refusal(userID: 1000, allowRoot: false) == nil)
    }
}

/// Counts what a JUnit document holds.
private final class JUnitReader: NSObject, XMLParserDelegate {
    var elements: [String] = []
    var suites: [String] = []
    var testCases = 0
    var failures: [String] = []
    var attributes: [String: [String: String]] = [:]
    private var text: String?

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        elements.append(name)
        if self.attributes[name] == nil { self.attributes[name] = attributes }
        switch name {
        case "testsuite": suites.append(attributes["name"] ?? "")
        case "testcase": testCases += 1
        case "failure": text = ""
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text? += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "failure", let text {
            failures.append(text)
            self.text = nil
        }
    }
}
