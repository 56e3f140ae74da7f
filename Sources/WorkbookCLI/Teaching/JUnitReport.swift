import Foundation

/// A ``WorkbookReport`` as JUnit XML, the format CI services read test results in: one
/// `testsuite` per chapter, one `testcase` per chapter test, each failure carrying the lesson.
/// A chapter whose result doesn't count (tests modified, does not compile, no result) gets
/// one more test case, `chapter status`, that fails with the reason.
public enum JUnitReport {
    public static func render(_ report: WorkbookReport) -> String {
        var suites = ""
        var totals = (tests: 0, failures: 0, skipped: 0)
        for chapter in report.chapters {
            var cases = ""
            var counts = (tests: 0, failures: 0, skipped: 0)
            let suiteName = chapter.folder
            for test in chapter.testResults {
                counts.tests += 1
                cases += "    <testcase classname=\(attribute(suiteName)) name=\(attribute(test.name))"
                switch test.result {
                case "failed":
                    counts.failures += 1
                    let text = test.messages.isEmpty ? "the test failed" : body(of: test.messages)
                    let first = text.split(separator: "\n").first.map(String.init) ?? "the test failed"
                    cases += ">\n      <failure message=\(attribute(first)) type=\"lesson\">"
                    cases += escape(text) + "</failure>\n    </testcase>\n"
                case "skipped", "notRun":
                    counts.skipped += 1
                    let why = test.result == "skipped" ? "skipped" : "the test run stopped before this test"
                    cases += ">\n      <skipped message=\(attribute(why))/>\n    </testcase>\n"
                default:
                    cases += "/>\n"
                }
            }
            if let problem = statusProblem(chapter) {
                counts.tests += 1
                counts.failures += 1
                cases += "    <testcase classname=\(attribute(suiteName)) name=\"chapter status\">\n"
                cases += "      <failure message=\(attribute(chapter.label)) type=\"status\">"
                cases += escape(problem) + "</failure>\n    </testcase>\n"
            }
            suites += "  <testsuite name=\(attribute(suiteName)) tests=\"\(counts.tests)\" "
            suites += "failures=\"\(counts.failures)\" errors=\"0\" skipped=\"\(counts.skipped)\">\n"
            suites += "    <properties>\n"
            suites += "      <property name=\"title\" value=\(attribute(chapter.title))/>\n"
            suites += "      <property name=\"status\" value=\(attribute(chapter.label))/>\n"
            suites += "    </properties>\n" + cases + "  </testsuite>\n"
            totals.tests += counts.tests
            totals.failures += counts.failures
            totals.skipped += counts.skipped
        }
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        text += "<testsuites name=\(attribute(report.workbook.title)) tests=\"\(totals.tests)\" "
        text += "failures=\"\(totals.failures)\" errors=\"0\" skipped=\"\(totals.skipped)\" "
        text += "timestamp=\(attribute(report.generatedAt))>\n"
        return text + suites + "</testsuites>\n"
    }

    /// The lessons of one failing test, each with the README section to read.
    static func body(of messages: [String]) -> String {
        messages.map { message in
            let lesson = LessonText(message)
            guard let section = lesson.section, let reading = lesson.reading else { return lesson.text }
            return lesson.text + "\nRead: \(reading), section \"\(section)\""
        }.joined(separator: "\n\n")
    }

    /// Why a chapter's result doesn't count, or nil when it does.
    static func statusProblem(_ chapter: WorkbookReport.Chapter) -> String? {
        switch chapter.status {
        case "testsModified":
            return "These files differ from the recorded ones, so the chapter's result does not count:\n"
                + chapter.tamperedFiles.map { "  \($0)" }.joined(separator: "\n")
        case "doesNotCompile":
            return "The compiler rejects the chapter's code:\n" + chapter.compileErrors.joined(separator: "\n")
        case "noResult":
            return "No result: \(chapter.reason ?? "the chapter's tests did not run")."
        default:
            return nil
        }
    }

    /// `"text"`, escaped for an XML attribute.
    static func attribute(_ text: String) -> String {
        "\"" + escape(text).replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "\n", with: "&#10;")
            + "\""
    }

    /// Text escaped for XML character data, without the characters XML 1.0 forbids.
    static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            default:
                // XML 1.0 allows no other control character, not even escaped.
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) {
                    result += "?"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }
}
