/// The `--help` text of every command.
public enum Help {
    /// The overview: every command with one line each.
    public static let overview = """
        workbook: your progress through the Concurrency Workbook, and the tools around it.

        Usage: swift run workbook [command] [arguments]

        Commands:
          list                     the chapter table, your progress and the next step (the default)
          check [chapter] [--race] run a chapter's tests and explain what still fails
          hint [chapter] [n]       show the next hint for a chapter (or hint n)
          watch [chapter]          re-check a chapter every time you save, then move on
          reset <chapter>          put a chapter's exercise back as it was (your files are backed up first)
          verify                   the teacher/CI check: solutions pass, exercises fail for the right reasons
          student-edition <dir>    write a copy of the workbook without Solutions/ into a new folder
          hashes [--update]        check (or record) the hashes of the tests, for maintainers
          report [--format F]      one run of every chapter as JSON, JUnit or Markdown, for CI
          grade <dir>...           grade student checkouts against these tests: a class table
          help [command]           this text, or help on one command

        A chapter is named by its number (1 or 01), its folder (01-Continuations) or its module
        (Ch01Continuations); without one, check and hint take the chapter you are on (the first
        not done). From outside the workbook: swift run --package-path <dir> workbook.
        list, check, watch, report and grade stop a test run that takes longer than --time-limit SECONDS
        (default 60) or more memory than --memory-limit GB (default 2).
        Run `swift run workbook <command> --help` for more.
        """

    /// The help of one command.
    public static func text(for command: CommandName) -> String {
        switch command {
        case .list:
            """
            Usage: swift run workbook [list] [--time-limit SECONDS] [--memory-limit GB]

            Builds the exercises (in .build, the build `swift test` uses too), runs every chapter's
            tests once, and shows each chapter with its status, a progress bar, and the next
            chapter to work on with the exact command to run. The statuses:

              done                 every test passes, and you changed the exercise
              failing N of M       N of the chapter's M tests still fail
              not started          the exercise is exactly as handed out (whatever its tests say)
              tests modified       a test file, Sources/SimulatedWorld, Sources/WorkbookTesting or
                                   Package.swift was changed, so the result does not count; the
                                   tool says what was changed and how to undo it
              does not compile     the compiler rejects the chapter's code; all chapters build
                                   together, so no chapter can be re-checked until it compiles
              … (last known)       the build failed: what the last run that built found
                                   ("last known, edited since": you changed the exercise since)
              no result            the chapter's tests did not run (or were stopped at a limit)

            \(RunLimits.optionsHelp)
            """
        case .check:
            """
            Usage: swift run workbook check [chapter] [--race] [--time-limit SECONDS] [--memory-limit GB]

            Runs the chapter's tests (without a chapter: every chapter's, then reports on the first
            not done). Each failing test is shown as what went wrong, in words, followed by a hint
            (the one about that failure, if a hint names it, or else the first you have not seen)
            and the README sections to read. Exits with 1 while any test fails, 0 when the chapter
            is done. Plain `swift test --filter Ch01ContinuationsTests` runs the same tests, in the
            same build, with the raw output. A test run that loops or eats memory is stopped at
            its limit and reported, naming the test that was running.

            --race   runs the chapter's tests under Thread Sanitizer instead, and explains each
                     data race it sees: the two accesses, in your files, and which one writes.
                     A separate build in .build-race (the first takes a few minutes). Exits
                     with 1 if it saw a race.

            \(RunLimits.optionsHelp)
            """
        case .hint:
            """
            Usage: swift run workbook hint [chapter] [n]

            Shows the next hint for the chapter (without one, the chapter you are on), gentlest
            first; run it again for the next one. With n, shows hint n. Which hints you have seen
            (here or in `check`) is kept in .workbook/ (ignored by git).
            """
        case .watch:
            """
            Usage: swift run workbook watch [chapter] [--time-limit SECONDS] [--memory-limit GB]

            Checks the chapter (by default the first one not done), then checks it again every
            time you save one of its files. When it passes, says so and moves on to the next
            chapter that is not done. Quit with Ctrl-C.

            \(RunLimits.optionsHelp)
            """
        case .reset:
            """
            Usage: swift run workbook reset <chapter>

            Puts the chapter's exercise files back to their original state. Your current files
            are first copied to .workbook/backups/<chapter>-<time>/ (ignored by git), so nothing
            is lost. The original comes from git history (the newest commit whose files match
            the hashes recorded in Chapters/test-hashes.json, so your own commits don't count)
            or, in a checkout without history, from the Pristine/ copy a student edition ships.
            """
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

            \(RunLimits.optionsHelp)
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

            \(RunLimits.optionsHelp)
            """
        case .help:
            """
            Usage: swift run workbook help [command]

            Shows the overview, or the help of one command (the same as `<command> --help`).
            """
        }
    }
}
