import Foundation
import Testing
import WorkbookCLI

/// The teacher's README.md, which documents the report's schema and the student workflow.
enum TeachersReadme {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var text: String {
        get throws { try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8) }
    }

    /// The teacher's README documents the schema and the workflow; a student edition's README is for students.
    static let exists = FileManager.default.fileExists(atPath: packageRoot.appendingPathComponent("Solutions").path)

    /// The first fenced block of `language` after the heading `heading` in `text` (fences may be indented).
    static func block(after heading: String, language: String, in text: String) throws -> String {
        let section = try #require(text.range(of: "\n" + heading + "\n"), "no heading \(heading)")
        var lines: [String] = []
        var inside = false
        for line in text[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if !inside {
                inside = trimmed == "```" + language
            } else if trimmed == "```" {
                return lines.joined(separator: "\n")
            } else {
                lines.append(String(line))
            }
        }
        Issue.record("no ```\(language) block after \(heading)")
        return ""
    }
}

@Suite("The student edition's README and CI workflow")
struct StudentWorkflowTests {
    @Test(
        "The student workflow: the official image, GitHub's own actions, and the commands the README shows",
        .enabled(if: TeachersReadme.exists, "a student edition's README is for students"))
    func workflow() throws {
        let text = StudentWorkflow.text
        #expect(text.contains("container: swift:6.3\n"))
        let documented = try TeachersReadme.block(
            after: "### Teaching a class", language: "sh", in: try TeachersReadme.text
        )
        .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(StudentWorkflow.commands == documented, "the workflow's commands and README.md's differ")
        for command in StudentWorkflow.commands where command.hasPrefix("swift run workbook ") {
            let words = command.dropFirst("swift run workbook ".count).split(separator: " ").map(String.init)
            let (_, rest, _) = try RunLimits.extract(from: words)
            guard case .report = try Command.parse(rest) else {
                Issue.record("not a report command: \(command)")
                continue
            }
        }
        #expect(StudentWorkflow.commands.last?.contains("--fail-if-tampered") == true, "it fails only on tampering")
        #expect(
            StudentWorkflow.commands.filter { $0.contains("--fail-if-tampered") }.count == 1,
            "one step fails the job, the last")
    }

    @Test("The student README states the Swift Package.swift requires, in the section its message names")
    func studentRequirements() throws {
        let manifest = try String(
            contentsOf: TeachersReadme.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest.contains("#if !compiler(>=\(StudentReadme.requiredSwift))"))
        #expect(manifest.contains("README.md, 'Requirements'"))
        let student = StudentReadme.render(Fixture.curriculum)
        #expect(student.contains("\n## Requirements\n\nSwift \(StudentReadme.requiredSwift) or later"))
        #expect(!student.contains("6.1"))
    }

    @Test("The student README carries the sections the tool's messages send a learner to")
    func studentLearnerSections() {
        let teacher = """
            # Workbook

            ## Quickstart

            ### Time and memory limits

            Limits text.

            ```sh
            # not a heading
            ```

            #### A detail

            More.

            ## For teachers

            Teacher text.

            ## When a test says the process ended early

            Early text.
            """
        let sections = StudentReadme.learnerSections(of: teacher)
        #expect(
            sections == """
                ## Time and memory limits

                Limits text.

                ```sh
                # not a heading
                ```

                ### A detail

                More.

                ## When a test says the process ended early

                Early text.


                """, "each section ends with a blank line")
        let student = StudentReadme.render(Fixture.curriculum, editions: [], teacherReadme: teacher)
        #expect(student.contains("\n## Time and memory limits\n"))
        #expect(!student.contains("Teacher text."))
        #expect(student.contains("Early text.\n\n## Chapters\n"))
    }

    @Test("The workflow uses exactly the pinned actions, each at a major version that runs on Node 24")
    func workflowPins() throws {
        #expect(StudentWorkflow.actions == StudentWorkflow.pins.map(\.reference), "the workflow's actions are the pins")
        #expect(Set(StudentWorkflow.pins.map(\.action)).count == StudentWorkflow.pins.count, "one pin per action")
        for pin in StudentWorkflow.pins {
            #expect(pin.action.hasPrefix("actions/"), "\(pin.action) is not one of GitHub's own actions")
            #expect(pin.major >= pin.firstMajorOnNode24, "\(pin.reference) is older than the first major on Node 24")
            if TeachersReadme.exists {
                #expect(
                    try TeachersReadme.text.contains("`\(pin.reference)`"), "README.md does not name \(pin.reference)")
            }
        }
        if TeachersReadme.exists {
            let named = try TeachersReadme.text.matches(of: /`(actions\/[a-z-]+@v[0-9]+)`/).map { String($0.1) }
            #expect(Set(named) == Set(StudentWorkflow.pins.map(\.reference)), "README.md names another version")
        }
    }

    @Test("An edition's README leaves out its teacher-only parts in a student edition, inline or whole sections")
    func teacherOnlyParts() {
        let start = StudentReadme.teacherOnlyStart
        let end = StudentReadme.teacherOnlyEnd
        let readme = """
            # Workbook

            A paragraph ends here.\(start)
            A sentence for teachers.\(end)

            Inline\(start) (teachers)\(end) text.

            \(start)
            ## For teachers

            - a link

            \(end)
            """
        #expect(
            StudentReadme.withoutTeacherOnlyParts(readme) == "# Workbook\n\nA paragraph ends here.\n\nInline text.\n")
        #expect(
            StudentReadme.withoutTeacherOnlyParts("Kept.\n\(start)\nUnended.\n") == "Kept.\n", "a start without an end")
        #expect(StudentReadme.withoutTeacherOnlyParts("Nothing marked.\n") == "Nothing marked.\n")
        #expect(StudentReadme.withoutTeacherOnlyParts("End.\n\n\(start)\n## Teachers\n\(end)\n") == "End.\n")
        let code = "```\nlet a = 1\n\n\nlet b = 2\n```\n"
        #expect(
            StudentReadme.withoutTeacherOnlyParts(code + "\(start)x\(end)\n") == code,
            "blank lines away from a part stay as they were")
    }

    @Test(
        "The workbook's README.ko.md: its markers pair up, and a student's copy names no teacher material",
        .enabled(if: TeachersReadme.exists, "a student edition's README is for students"))
    func koreanReadmeForStudents() throws {
        let readme = try String(
            contentsOf: TeachersReadme.packageRoot.appendingPathComponent("README.ko.md"), encoding: .utf8)
        let markers = readme.matches(of: /<!-- \/?teacher-only -->/).map { String($0.0) }
        #expect(!markers.isEmpty, "README.ko.md marks its teacher-only parts")
        let alternate = markers.enumerated().allSatisfy { index, marker in
            marker == (index.isMultiple(of: 2) ? StudentReadme.teacherOnlyStart : StudentReadme.teacherOnlyEnd)
        }
        #expect(
            alternate && markers.count.isMultiple(of: 2),
            "every teacher-only part of README.ko.md has a start and then an end")
        let student = StudentReadme.withoutTeacherOnlyParts(readme)
        for line in student.split(separator: "\n")
        where line.contains(/scripts\/|Solutions|--traits|WORKBOOK_MODE|workbook verify|\bgates\b|\.ci\/|README\.md#/) {
            Issue.record(
                "a student's README.ko.md names teacher material, or a section only the teacher's README.md has: \(line)"
            )
        }
    }
}
