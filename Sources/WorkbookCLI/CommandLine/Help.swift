/// The `--help` text of every command.
public enum Help {
    /// The overview: every command with one line each (from the English catalog).
    public static var overview: String { Catalog.english("help.overview") }

    /// The help of one command. The learner's commands take theirs from the catalog (so it
    /// is in the learner's language, see ``Strings/helpText``); the teacher's are in English.
    public static func text(for command: CommandName) -> String {
        switch command {
        case .list, .check, .hint, .watch, .reset, .help:
            Strings.english.helpText(command) ?? ""
        case .verify:
            """
            Usage: swift run workbook verify [options of scripts/verify, such as --no-fix-check]

            The teacher/CI check, the same as scripts/verify: no package dependencies and no
            warnings, every test passes against Solutions/, every bug-exposing test fails on the
            exercise for its stated reason, each solution makes its exercise check fail, and the
            tests match their recorded hashes. In a student edition (no Solutions/), only the
            hashes are checked. It takes the options scripts/verify documents (scripts/verify
            --help), for example --no-fix-check and --no-cli-test, and passes them on.
            """
        case .studentEdition:
            """
            Usage: swift run workbook student-edition <dir>

            Writes a copy of the workbook without Solutions/ (and without the teacher's scripts)
            into <dir>, which must be new or empty. Every exercise is its recorded original (from
            git history or a Pristine/ copy, as for `reset`), never your working copy: it says
            which chapters it restored. The copy's README.md is written for students; its
            Package.swift has no solution targets and no Solutions trait; it ships a Pristine/
            copy of the exercises for `workbook reset`. The copy builds, and `swift run workbook`
            works in it. Refused while the tests, the shared instruments or Package.swift differ
            from Chapters/test-hashes.json.
            """
        case .hashes:
            """
            Usage: swift run workbook hashes [--update]

            Compares each chapter's test files, the shared instruments (Sources/WorkbookTesting,
            Sources/SimulatedWorld) and Package.swift with the SHA-256 hashes in
            Chapters/test-hashes.json, and exits with 1 if any differ. Maintainers run it with
            --update after changing tests, instruments, Package.swift or an exercise, or adding a
            chapter.
            """
        case .report:
            """
            Usage: swift run workbook report [--format json|junit|markdown] [--output FILE]
                                             [--from FILE] [--fail-if-tampered]
                                             [--time-limit SECONDS] [--memory-limit GB]

            Builds and runs every chapter's tests once and writes the result in a stable format,
            for CI services and classroom tools (the student edition's
            .github/workflows/workbook.yml runs it on every push):

              json       every chapter: status, tests passed and failed, the failing lessons with
                         their README sections, tamper findings; the toolchain, the commit, a
                         timestamp. Its schema is in README.md ("The report's JSON schema").
              junit      JUnit XML: one test case per chapter test, each failure with its lesson
              markdown   the chapter table, for a CI job summary

            --output FILE       write the report to FILE instead of standard output
            --from FILE         render a JSON report made earlier instead of running the tests
            --fail-if-tampered  exit with 1 if the report records tampering

            Exits with 0 whatever the progress (chapters failing or not compiling are part of the
            report); non-zero only when no report could be made. The statuses are this run's
            alone: no "last known" ones, and nothing is recorded in .workbook/.

            \(limits(in: .english))
            """
        case .grade:
            """
            Usage: swift run workbook grade <dir>... [--output DIR] [--workspace DIR] [--allow-root]
                                            [--time-limit SECONDS] [--memory-limit GB]

            For the teacher, in the teacher's checkout. Each <dir> is a student checkout, or a
            folder of them. Each student's exercise files are laid over a copy of this workbook
            (its Package.swift without solutions, Sources/, Tests/ and Chapters/test-hashes.json:
            never the student's) in .build-grade/workbook, and every chapter's tests run there.
            --workspace DIR grades in DIR instead: a student edition you have already built
            (its build is reused, so the first student costs no full build), an earlier grading
            copy, or an empty folder; it refuses a folder that holds work (a git checkout).
            Tamper findings come from comparing the student's tests, instruments and Package.swift
            with this workbook's record. The students' folders are only read.

            Writes a class table (student, chapters done, current chapter, tamper findings, notes)
            and the lessons most students fail, in Markdown (also printed) and CSV, with each
            student's JSON report, to DIR (default .workbook/grades). A checkout that does not
            compile, hangs (--time-limit, per student) or crashes is reported as such, and the
            others are still graded.

            Grading runs code the students wrote, on this machine, as you. For submissions you
            don't trust, run it in a throwaway container or CI job instead; it refuses to run as
            root unless given --allow-root (a container's usual user).

            \(limits(in: .english))
            """
        }
    }
}

extension Help {
    /// The limit options as the learner's help shows them, with the defaults.
    static func limits(in catalog: Catalog) -> String {
        catalog(
            "help.limits",
            ["timeLimit": RunLimits.defaultTimeLimit, "memoryLimit": Int(RunLimits.defaultMemoryLimit)])
    }
}
