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

    /// The actions the workflow uses, each pinned to its current major version: the one place
    /// to change them. Both majors run on Node 24 (`runs.using: node24`), the runtime GitHub's
    /// hosted runners use for JavaScript actions since 2026 (checkout v5 and upload-artifact
    /// v6 were the first that did).
    public static let pins = (checkout: "actions/checkout@v6", uploadArtifact: "actions/upload-artifact@v7")

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
              - uses: \(pins.checkout)
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
                uses: \(pins.uploadArtifact)
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
