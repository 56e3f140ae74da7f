/// The CI workflow a student edition carries, `.github/workflows/workbook.yml`: on every push,
/// one `workbook report` in the official Swift container image, its JSON and JUnit forms
/// uploaded, the chapter table in the job summary. Failing chapters don't fail the job; only
/// tampering does. It uses only the actions GitHub itself publishes. README.md ("For teachers")
/// shows the same commands; `WorkbookReportTests` keeps the two in step.
public enum StudentWorkflow {
    /// Where the workflow goes in the student edition.
    public static let path = ".github/workflows/workbook.yml"

    /// The container image the job runs in.
    public static let image = "swift:6.3"

    /// An action the workflow uses, pinned to a major version.
    public struct Pin: Sendable, Equatable {
        /// `owner/name`: one of GitHub's own actions.
        public let action: String
        public let major: Int
        /// The first major whose `action.yml` says `runs.using: node24`: older ones declare
        /// Node 20, which GitHub's hosted runners phased out for JavaScript actions in 2026.
        public let firstMajorOnNode24: Int

        /// `actions/checkout@v7`: what the workflow's `uses:` says.
        public var reference: String { "\(action)@v\(major)" }
    }

    /// The actions the workflow uses, each pinned to its current major version: the one place
    /// to change them. `actions/checkout` v7 (June 2026) only adds a refusal to check out a
    /// fork's pull request for `pull_request_target` and `workflow_run`, events this workflow
    /// doesn't use; `actions/upload-artifact` v7 adds single-file uploads without a zip, off by
    /// default. `StudentWorkflowTests` check the workflow and README.md against this list.
    public static let checkout = Pin(action: "actions/checkout", major: 7, firstMajorOnNode24: 5)
    public static let uploadArtifact = Pin(action: "actions/upload-artifact", major: 7, firstMajorOnNode24: 6)
    public static let pins = [checkout, uploadArtifact]

    public static let text = """
        # The Concurrency Workbook's CI, written by `workbook student-edition`. On every push it
        # builds the workbook in the official Swift container image, runs every chapter's tests once
        # (`workbook report`), uploads the JSON and JUnit reports as the `workbook-report` artifact,
        # and shows the chapter table in the job summary. Chapters that still fail, or don't compile,
        # are progress, not errors: the job fails only if a test, an instrument or Package.swift was
        # changed. It uses no actions but GitHub's own.
        name: workbook

        on:
          push:
          workflow_dispatch:

        permissions:
          contents: read

        jobs:
          report:
            runs-on: ubuntu-latest
            container: \(image)
            timeout-minutes: 30
            steps:
              - uses: \(checkout.reference)
              - name: Build the workbook tool
                run: swift build --product workbook
              - name: Run every chapter's tests once
                run: swift run workbook report --format json --output workbook-report.json
              - name: JUnit report
                run: swift run workbook report --from workbook-report.json --format junit --output workbook-report.xml
              - name: Chapter table in the job summary
                run: swift run workbook report --from workbook-report.json --format markdown --output "$GITHUB_STEP_SUMMARY"
              - name: Upload the reports
                if: always()
                uses: \(uploadArtifact.reference)
                with:
                  name: workbook-report
                  path: |
                    workbook-report.json
                    workbook-report.xml
              - name: Fail if the tests were tampered with
                run: swift run workbook report --from workbook-report.json --format markdown --fail-if-tampered

        """

    /// The shell commands of the workflow's steps, in order.
    public static var commands: [String] {
        text.split(separator: "\n").compactMap { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return trimmed.hasPrefix("run: ") ? String(trimmed.dropFirst("run: ".count)) : nil
        }
    }

    /// The actions the workflow uses (`uses:`), in order.
    public static var actions: [String] {
        text.split(separator: "\n").compactMap { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces).drop { $0 == "-" || $0 == " " }
            return trimmed.hasPrefix("uses: ") ? String(trimmed.dropFirst("uses: ".count)) : nil
        }
    }
}
