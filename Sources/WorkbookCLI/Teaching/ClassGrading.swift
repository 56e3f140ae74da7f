import Foundation
import WorkbookCurriculum

/// `workbook grade`: each student checkout's exercises run against the teacher's own tests.
///
/// Nothing of a student's checkout is trusted but their exercise files. Each student is graded
/// in the grading copy, `.build-grade/workbook` in the teacher's checkout: the teacher's
/// `Package.swift` (without solutions, as handed out), `Sources/`, `Tests/`, `Chapters/`
/// readings and `Chapters/test-hashes.json`, with the student's exercise files laid over. The
/// copy and its build are shared by every student in turn, so each build compiles only the
/// exercise modules that differ from the previous student's. Tamper findings come from
/// comparing the student's own files with the teacher's record; a student's edited record
/// hides nothing. The student's checkout is only read.
public struct ClassGrading {
    /// One checkout to grade.
    public struct Student: Equatable, Sendable {
        /// The name in the class table: the folder's name.
        public var name: String
        public var url: URL
        /// Why it can't be graded (not a workbook checkout), or nil.
        public var problem: String?

        public init(name: String, url: URL, problem: String? = nil) {
            self.name = name
            self.url = url
            self.problem = problem
        }
    }

    /// The result of grading one student.
    public struct Graded: Sendable {
        public var student: Student
        /// Nil when the student could not be graded at all.
        public var report: WorkbookReport?
        /// What the table says besides the counts: a failed build, a run stopped at a limit…
        public var notes: [String]

        public init(student: Student, report: WorkbookReport?, notes: [String]) {
            self.student = student
            self.report = report
            self.notes = notes
        }
    }

    public let teacher: PackageLayout
    public let curriculum: Curriculum
    public var limits: RunLimits
    /// The teacher's record as the students got it: `Package.swift` as in a student edition.
    public let record: TestHashes
    public let workspace: PackageLayout

    /// The grading copy, relative to the teacher's checkout (a build folder, ignored by git).
    public static let workspaceFolder = ".build-grade/workbook"
    /// The top-level entries of the grading copy that it manages.
    static let copiedFolders = ["Sources", "Tests", "Chapters"]

    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// Refuses a teacher's checkout without a record, or whose files differ from it, and a
    /// `workspace` that is not fit to be a grading copy (see ``refusal(workspace:teacher:)``).
    /// Without a `workspace`, the grading copy is ``workspaceFolder`` in the teacher's checkout.
    public init(teacher: PackageLayout, curriculum: Curriculum, limits: RunLimits, workspace: URL? = nil) throws {
        self.teacher = teacher
        self.curriculum = curriculum
        self.limits = limits
        guard var record = try TestHashes.load(from: teacher) else {
            throw Refusal(
                description:
                    "grade: this checkout has no \(PackageLayout.hashesPath) to compare the students' tests with")
        }
        let report = record.compare(with: TestHashes.compute(for: curriculum, in: teacher))
        if !report.isClean {
            throw Refusal(
                description: "grade: these files differ from \(PackageLayout.hashesPath), so the students' tests can't "
                    + "be compared with it:\n" + report.problems.map { "  \($0)\n" }.joined()
                    + "Put them back, or record them with `swift run workbook hashes --update`.")
        }
        let manifest = try StudentEdition.packageManifest(
            from: String(contentsOf: teacher.url("Package.swift"), encoding: .utf8))
        record.shared["Package.swift"] = SHA256.hex(Array(manifest.utf8))
        self.record = record
        if let workspace, let refusal = Self.refusal(workspace: workspace, teacher: teacher) {
            throw Refusal(description: refusal)
        }
        self.workspace = PackageLayout(root: workspace ?? teacher.url(Self.workspaceFolder))
    }

    /// Why `folder` can't be the grading copy, or nil. Grading rewrites its `Package.swift`,
    /// `Sources/`, `Tests/` and `Chapters/`, so it must be a folder that holds nothing of anyone's
    /// work: missing or empty, an earlier grading copy, or a student edition (which has a
    /// `Pristine/` copy of the exercises) that nobody works in: no git repository, no solutions.
    public static func refusal(workspace folder: URL, teacher: PackageLayout) -> String? {
        let fileManager = FileManager.default
        let path = folder.standardizedFileURL.path
        guard fileManager.fileExists(atPath: path) else { return nil }
        let entries = (try? fileManager.contentsOfDirectory(atPath: path)) ?? []
        if entries.isEmpty { return nil }
        let teacherRoot = teacher.root.standardizedFileURL.path
        let inside = path == teacherRoot || path.hasPrefix(teacherRoot + "/") && !path.contains("/.build")
        if inside || entries.contains(".git") || entries.contains("Solutions")
            || !entries.contains("Pristine")
                && !entries.contains(Self.copyMarker)
        {
            return "grade: --workspace \(path) holds work of its own (a checkout, the teacher's workbook, or "
                + "files that are not a student edition); grading would overwrite its exercises. Give an empty "
                + "folder, an earlier grading copy, or a student edition made for grading."
        }
        return nil
    }

    /// A file that marks a folder as a grading copy, so that a later `--workspace` may reuse it.
    static let copyMarker = ".workbook-grading-copy"

    /// Why `grade` won't run for the user `userID`, or nil: it runs code the students wrote,
    /// so not as root unless told to (in a throwaway container, say).
    public static func refusal(userID: UInt32, allowRoot: Bool) -> String? {
        guard userID == 0, !allowRoot else { return nil }
        return "workbook: grade runs code the students wrote, with the rights of whoever runs it, and refuses to "
            + "run as root. Run it as an ordinary user, or in a throwaway container or CI job, where --allow-root "
            + "lets it run as root."
    }

    /// The checkouts named by `arguments`: each is a checkout (it has `Chapters/`), or a folder
    /// whose subfolders are checkouts. Names are made unique.
    public static func students(in arguments: [URL]) -> [Student] {
        let fileManager = FileManager.default
        func isCheckout(_ url: URL) -> Bool {
            var isDirectory: ObjCBool = false
            return fileManager.fileExists(
                atPath: url.appendingPathComponent("Chapters").path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }
        var found: [Student] = []
        for argument in arguments {
            let url = argument.standardizedFileURL
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                found.append(Student(name: url.lastPathComponent, url: url, problem: "no such folder"))
                continue
            }
            if isCheckout(url) {
                found.append(Student(name: url.lastPathComponent, url: url))
                continue
            }
            let children = ((try? fileManager.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
                .filter { !$0.hasPrefix(".") }.map { url.appendingPathComponent($0) }
                .filter { child in
                    var isFolder: ObjCBool = false
                    return fileManager.fileExists(atPath: child.path, isDirectory: &isFolder) && isFolder.boolValue
                }
            if children.isEmpty {
                found.append(Student(name: url.lastPathComponent, url: url, problem: "not a workbook checkout"))
            }
            for child in children {
                found.append(
                    Student(
                        name: child.lastPathComponent, url: child,
                        problem: isCheckout(child) ? nil : "not a workbook checkout (no Chapters/ folder)"))
            }
        }
        var seen: [String: Int] = [:]
        for index in found.indices {
            let name = found[index].name
            seen[name, default: 0] += 1
            if seen[name]! > 1 { found[index].name = "\(name)-\(seen[name]!)" }
        }
        return found
    }

    /// Grades one student: lays their exercises over the grading copy, runs every chapter's
    /// tests under the limits, and reports. `progress` shows the build's progress.
    public func grade(
        _ student: Student, toolchain: String?, progress: BuildProgress.Display? = nil
    ) throws(Interrupted) -> Graded {
        if let problem = student.problem { return Graded(student: student, report: nil, notes: [problem]) }
        let checkout = PackageLayout(root: student.url)
        let tamper = record.compare(with: TestHashes.compute(for: curriculum, in: checkout))
        // No undo commands: they would come from running git in the student's checkout.
        let findings = TamperFindings.from(tamper, curriculum: curriculum) { _, _ in nil }
        var missing: [Curriculum.Chapter] = []
        var copyProblem: String?
        let graded = try Self.gradeAroundBrokenChapters(curriculum: curriculum) { (replaced) throws(Interrupted) in
            do {
                missing = try layOut(checkout, replacing: replaced)
            } catch {
                copyProblem = "could not be copied: \(error.localizedDescription)"
                return nil
            }
            return try LearnerRun.perform(
                for: curriculum.chapters, in: workspace, limits: limits, say: { _ in }, progress: progress)
        }
        guard let graded else { return Graded(student: student, report: nil, notes: [copyProblem ?? "not graded"]) }
        let run = graded.run
        var statuses = run.statuses(of: curriculum.chapters, curriculum: curriculum, tamper: tamper)
        for chapter in missing {
            statuses[chapter.folder] = .noResult(reason: "the checkout has no exercise files for this chapter")
        }
        for chapter in curriculum.chapters {
            guard let errors = graded.compileErrors[chapter.folder] else { continue }
            statuses[chapter.folder] = ChapterStatus.of(chapter, run: nil, tamper: tamper, compileErrors: errors)
        }
        let report = WorkbookReport.make(
            curriculum: curriculum, statuses: statuses, run: run, tamper: findings,
            workbook: .of(
                checkout, title: curriculum.title, record: workspace.url(PackageLayout.hashesPath)),
            toolchain: toolchain, student: student.name)
        var notes: [String] = []
        let broken = curriculum.chapters.filter { graded.compileErrors[$0.folder] != nil }
        if !broken.isEmpty {
            notes.append(
                "does not compile: \(RunAccounting.numbers(broken)) (the other chapters graded with "
                    + "\(broken.count == 1 ? "its" : "their") original files)")
        }
        notes += Self.notes(for: run, curriculum: curriculum, untouched: tamper.untouchedExercises)
        if !missing.isEmpty {
            notes.append("no exercise files for \(RunAccounting.numbers(missing)) (graded as handed out)")
        }
        return Graded(student: student, report: report, notes: notes)
    }

    /// A grading run, and the chapters that did not compile with their errors.
    public struct RunAroundBrokenChapters: Sendable {
        public var run: LearnerRun
        /// Chapter folder → the compiler's errors in the student's files of that chapter.
        public var compileErrors: [String: [String]]
    }

    /// Runs `attempt` with the student's files, and, while the build fails in chapters, again
    /// with those chapters' original files in their place, so that one chapter that doesn't
    /// compile costs the student that chapter alone. `attempt` gets the folders of the chapters
    /// to replace by their originals; it returns nil when the copy could not be made. Stops
    /// when the build succeeds or names no new chapter (an error outside every chapter).
    public static func gradeAroundBrokenChapters(
        curriculum: Curriculum, attempt: (Set<String>) throws(Interrupted) -> LearnerRun?
    ) throws(Interrupted) -> RunAroundBrokenChapters? {
        var compileErrors: [String: [String]] = [:]
        while true {
            guard let run = try attempt(Set(compileErrors.keys)) else { return nil }
            guard run.run == nil else { return RunAroundBrokenChapters(run: run, compileErrors: compileErrors) }
            let errors = BuildDiagnostics.errorsByChapter(buildLog: run.log, curriculum: curriculum, root: run.root)
                .filter { compileErrors[$0.key] == nil }
            if errors.isEmpty { return RunAroundBrokenChapters(run: run, compileErrors: compileErrors) }
            compileErrors.merge(errors) { old, _ in old }
        }
    }

    /// Makes the grading copy the teacher's workbook with `checkout`'s exercise files, writing
    /// only the files that differ (so the build recompiles only those modules) and removing
    /// the ones the checkout doesn't have. The chapters in `replaced` (folders) get their
    /// original files. Returns the chapters the checkout has no files for, which get their
    /// originals too.
    func layOut(_ checkout: PackageLayout, replacing replaced: Set<String> = []) throws -> [Curriculum.Chapter] {
        var planned: [String: Data] = [:]
        let exerciseFolders = Set(curriculum.chapters.map(PackageLayout.exerciseFolder))
        for folder in Self.copiedFolders {
            for path in FileTree.files(in: folder, root: teacher.root) {
                let parent = (path as NSString).deletingLastPathComponent
                if path.hasSuffix(".swift"), exerciseFolders.contains(parent) { continue }
                planned[path] = FileManager.default.contents(atPath: teacher.url(path).path)
            }
        }
        planned["Package.swift"] = Data(
            try StudentEdition.packageManifest(
                from: String(contentsOf: teacher.url("Package.swift"), encoding: .utf8)
            ).utf8)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        planned[PackageLayout.hashesPath] = try encoder.encode(record) + Data("\n".utf8)
        var missing: [Curriculum.Chapter] = []
        for chapter in curriculum.chapters {
            if replaced.contains(chapter.folder) {
                for (path, data) in originals(of: chapter) { planned[path] = data }
                continue
            }
            let files = TestHashes.exerciseFiles(chapter, in: checkout)
            if files.isEmpty {
                missing.append(chapter)
                for (path, data) in originals(of: chapter) { planned[path] = data }
            }
            for path in files { planned[path] = FileManager.default.contents(atPath: checkout.url(path).path) }
        }
        try Self.sync(planned, into: workspace.root, managing: Self.copiedFolders + ["Package.swift"])
        try Data().write(to: workspace.url(Self.copyMarker))
        return missing
    }

    /// A chapter's original exercise, for a checkout without it: from the teacher's git history
    /// or `Pristine/` copy, else the teacher's working copy.
    func originals(of chapter: Curriculum.Chapter) -> [String: Data] {
        if let found = ExerciseReset.sources(for: teacher).lazy.compactMap({ $0.files(of: chapter) }).first {
            return found
        }
        var files: [String: Data] = [:]
        for path in TestHashes.exerciseFiles(chapter, in: teacher) {
            files[path] = FileManager.default.contents(atPath: teacher.url(path).path)
        }
        return files
    }

    /// Makes the files under `root` in the `managed` entries exactly `planned`: writes what
    /// differs, leaves what is the same untouched (its build stays valid), removes the rest.
    static func sync(_ planned: [String: Data], into root: URL, managing managed: [String]) throws {
        let fileManager = FileManager.default
        for entry in managed {
            for path in FileTree.files(in: entry, root: root) where planned[path] == nil {
                try fileManager.removeItem(at: root.appendingPathComponent(path))
            }
        }
        for (path, data) in planned {
            let url = root.appendingPathComponent(path)
            if fileManager.contents(atPath: url.path) == data { continue }
            try fileManager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        }
    }

    /// What the table says about a run besides its counts.
    static func notes(for run: LearnerRun, curriculum: Curriculum, untouched: Set<String>) -> [String] {
        var notes: [String] = []
        if run.run == nil {
            let failure = run.buildFailure(curriculum: curriculum)
            if let failure, !failure.brokenChapters.isEmpty {
                notes.append("does not compile: \(RunAccounting.numbers(failure.brokenChapters))")
            } else if RunAccounting.mentionsOutOfMemory(run.log) {
                notes.append("the build ran out of memory (\(run.limits.memoryLimitText))")
            } else {
                notes.append("the build failed")
            }
            return notes
        }
        let running = curriculum.chapters.filter { chapter in
            run.run?.tests(inModule: chapter.testTarget).contains { $0.started && !$0.ended } == true
        }
        let suspects = running.filter { !untouched.contains($0.folder) }
        let named = suspects.isEmpty ? running : suspects
        let which = named.isEmpty ? "" : " while \(RunAccounting.numbers(named)) ran"
        switch run.ending {
        case .finished: break
        case .timeLimit(let seconds): notes.append("hangs: stopped at the \(seconds) s time limit\(which)")
        case .memoryLimit(let limit): notes.append("stopped: used more than \(limit) of memory\(which)")
        case .crashed: notes.append("the test process crashed\(which)")
        case .endedEarly(let status): notes.append("the test process ended early (exit status \(status))\(which)")
        }
        if !run.changedDuringRun.isEmpty { notes.append("its files changed while its tests ran") }
        return notes
    }
}
