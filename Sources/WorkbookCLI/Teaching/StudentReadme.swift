import WorkbookCurriculum

/// The `README.md` of a student edition: written for students, so it shows how to work
/// through the chapters and nothing a student edition doesn't have (no solutions, no teacher
/// scripts, no teacher CI); it mentions the CI workflow the edition carries.
public enum StudentReadme {
    /// The oldest Swift the package builds with: `Package.swift` stops below it with a message
    /// that points to the README's "Requirements" section.
    public static let requiredSwift = "6.3"

    /// Every status the chapter table can show, one Markdown list item each. README.md and
    /// `list --help` say the same.
    public static let statusList = """
        - `done`: every test passes, and you changed the exercise.
        - `failing N of M`: N of the chapter's M tests still fail.
        - `not started`: the exercise is exactly as it was handed out (whatever its tests say).
        - `tests modified`: a test file, the simulated world (`Sources/SimulatedWorld`), the test
          instruments (`Sources/WorkbookTesting`) or `Package.swift` was changed, so the result does
          not count. The tool says what was changed and how to undo it.
        - `does not compile`: the compiler rejects the chapter's code. All chapters build together,
          so while one does not compile no chapter can be re-checked.
        - `… (last known)`: the build failed, so this is what the last run that built found;
          `(last known, edited since)` if you changed the exercise after that run.
        - `no result`: the chapter's tests did not run (for example, it was never checked and the
          build now fails).
        """

    /// - Parameter korean: whether the edition carries the Korean edition (`README.ko.md`),
    ///   which the README then links.
    public static func render(_ curriculum: Curriculum, korean: Bool = false) -> String {
        render(curriculum, editions: korean ? [.korean] : [])
    }

    /// The sections of the workbook's README that the tool's messages send a learner to. A
    /// student edition carries them, copied from the teacher's README (see ``learnerSections(of:)``).
    public static let learnerSectionHeadings = [
        "Time and memory limits", "When the Swift 6 compiler is the test", "When a test says the process ended early",
        "Data races the tests can't see", "The report's JSON schema",
    ]

    /// The ``learnerSectionHeadings`` sections of `readme` (the teacher's `README.md`), in that
    /// order, each as a `##` section (its own subheadings shifted with it). A heading it lacks is
    /// left out.
    public static func learnerSections(of readme: String) -> String {
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func level(_ line: String) -> Int? {
            let hashes = line.prefix { $0 == "#" }.count
            return hashes > 0 && line.dropFirst(hashes).hasPrefix(" ") ? hashes : nil
        }
        var inFence = false
        var headings: [(index: Int, level: Int)] = []
        for (index, line) in lines.enumerated() {
            if line.hasPrefix("```") { inFence.toggle() }
            if !inFence, let level = level(line) { headings.append((index, level)) }
        }
        var text = ""
        for wanted in learnerSectionHeadings {
            guard let start = headings.firstIndex(where: { lines[$0.index].dropFirst($0.level + 1) == wanted }) else {
                continue
            }
            let (first, depth) = headings[start]
            let end = headings[(start + 1)...].first { $0.level <= depth }?.index ?? lines.count
            let shift = depth - 2
            for (offset, line) in lines[first..<end].enumerated() {
                let isHeading = headings.contains { $0.index == first + offset }
                text += (isHeading && shift > 0 ? String(line.dropFirst(shift)) : line) + "\n"
            }
            if !text.hasSuffix("\n\n") { text += "\n" }
        }
        return text
    }

    /// Marks a part of an edition's README (`README.<code>.md`) that only the teacher's copy
    /// keeps: a Markdown comment before it, and ``teacherOnlyEnd`` after it, within a paragraph
    /// or around whole sections. Readers on GitHub don't see the markers.
    public static let teacherOnlyStart = "<!-- teacher-only -->"
    /// Ends a part that ``teacherOnlyStart`` began.
    public static let teacherOnlyEnd = "<!-- /teacher-only -->"

    /// An edition's README as a student edition carries it: every part between
    /// ``teacherOnlyStart`` and ``teacherOnlyEnd`` left out, with its markers. Where a part
    /// stood on lines of its own, the blank lines around it fold into one (into none at the end
    /// of the file); the rest of the text is left exactly as it was. A start with no end leaves
    /// out the rest.
    public static func withoutTeacherOnlyParts(_ readme: String) -> String {
        var text = ""
        var rest = Substring(readme)
        while let start = rest.range(of: teacherOnlyStart) {
            text += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].range(of: teacherOnlyEnd) else {
                rest = ""
                break
            }
            rest = rest[end.upperBound...]
            let before = text.reversed().prefix { $0 == "\n" }.count
            let after = rest.prefix { $0 == "\n" }.count
            let most = rest.allSatisfy { $0 == "\n" } ? 1 : 2
            if before + after > most {
                let fromRest = min(after, before + after - most)
                rest = rest.dropFirst(fromRest)
                text.removeLast(before + after - most - fromRest)
            }
        }
        return text + rest
    }

    /// - Parameter editions: the languages whose edition (`README.<code>.md`) the student
    ///   edition carries; the README links each by the name its catalog gives it.
    /// - Parameter teacherReadme: the workbook's `README.md`, whose learner sections the student
    ///   README carries (``learnerSections(of:)``); nil for none.
    public static func render(_ curriculum: Curriculum, editions: [Language], teacherReadme: String? = nil) -> String {
        let links = editions.map { "\n\n> [\($0.catalog("language.name"))](README.\($0.code).md)" }.joined()
        var text = """
            # \(curriculum.title)\(links)

            Small, broken Swift programs that teach Swift concurrency. Each chapter takes one
            real-world concurrency mistake and gives you code that **compiles but is wrong**. Its tests
            fail and tell you what went wrong, in plain words, and which section of the chapter's
            reading explains it. Fix the code until the tests pass.

            ## Requirements

            Swift \(requiredSwift) or later (`swift --version`), on Linux or macOS; nothing else to install.
            The tests pass values into Swift Testing's exit tests, which needs Swift \(requiredSwift). With
            an older toolchain, `Package.swift` stops with a one-line message that points here. On macOS,
            use an Xcode whose `swift --version` says \(requiredSwift) or later; on Linux, a swift.org
            toolchain or the official container image (`\(StudentWorkflow.image)`). On Linux the package
            links with the toolchain's `lld` when an `ld.lld` is on the `PATH` (swift.org's toolchains
            have one next to `swift`): it links the tests in about half the time. Without one, it links
            with the toolchain's default linker.

            ## Quickstart

            ```sh
            swift run workbook
            ```

            The first run builds the exercises (a minute or two; it shows its progress), runs every
            chapter's tests once, and shows where you stand and what to do next. Later runs take seconds.

            Work through the chapters in order. For each one, read its `README.md`, then edit the
            exercise files in `Chapters/NN-Name/` until its tests pass:

            ```sh
            swift run workbook check 01     # what still fails, in words, with a hint
            swift run workbook watch        # the same, again on every save; Ctrl-C quits
            ```

            Don't edit the tests, `Sources/` or `Package.swift`: a chapter whose tests were changed
            shows as `tests modified`, not `done`.

            ## What the statuses mean

            \(statusList)

            ## The `workbook` command

            | Command | What it does |
            | --- | --- |
            | `swift run workbook` | your progress and the next step |
            | `swift run workbook check [chapter]` | runs a chapter's tests (by default the one you are on) and explains what still fails |
            | `swift run workbook watch [chapter]` | checks again every time you save; moves on when a chapter passes |
            | `swift run workbook hint [chapter] [n]` | the next hint (run it again for the next one); `n` picks a hint |
            | `swift run workbook reset <chapter>` | puts the exercise back as it was handed out; your files are backed up first in `.workbook/backups/` |

            A chapter can be named by number (`1`, `01`), folder (`01-Continuations`) or module
            (`Ch01Continuations`). Every command has `--help`. Plain `swift test --filter
            Ch01ContinuationsTests` runs the same tests, with the raw output, in the same build.

            ## On every push

            `.github/workflows/workbook.yml` runs every chapter's tests on GitHub each time you push:
            the chapter table shows on the run's summary page, and the `workbook-report` artifact holds
            the same result as JSON and JUnit (`swift run workbook report` makes them on your machine).
            Chapters that still fail don't fail the run; a changed test, `Sources/` or `Package.swift` does.

            \(teacherReadme.map(learnerSections(of:)) ?? "")## Chapters

            | # | Chapter | Check it |
            | --- | --- | --- |

            """
        for chapter in curriculum.chapters {
            let number = String(format: "%02d", chapter.number)
            text += "| \(number) | [\(chapter.title)](\(chapter.readmePath)) | `swift run workbook check \(number)` |\n"
        }
        return text
    }
}
