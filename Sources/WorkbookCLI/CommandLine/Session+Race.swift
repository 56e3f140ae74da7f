import Foundation
import WorkbookCurriculum

extension Session {
    /// The scratch path of the Thread Sanitizer build: a separate build, because the
    /// sanitizer changes how every module is compiled.
    static let raceScratchPath = ".build-race"
    /// How many runs the race check tries before it says it saw no race.
    static let raceRuns = 3

    /// `workbook check NN --race`: runs the chapter's tests (against the exercise) under
    /// Thread Sanitizer and explains each data race it saw, in the learner's lines.
    /// Returns 0 when no race was seen, 1 when one was or the run could not be made.
    func raceCheck(_ chapter: Curriculum.Chapter) throws -> Int32 {
        let work = layout.url(Self.raceScratchPath).appendingPathComponent("race-logs")
        try? FileManager.default.removeItem(at: work)
        try? FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let firstBuild = !FileManager.default.fileExists(atPath: layout.url(Self.raceScratchPath + "/debug").path)
        say(
            "Building chapter \(chapter.folder)'s tests with Thread Sanitizer in \(Self.raceScratchPath)"
                + (firstBuild ? " (a separate build: the first one takes a few minutes)…" : "…"))
        let buildLog = work.appendingPathComponent("build.log")
        let build = try Subprocess.run(
            ["swift", "build", "--build-tests", "--sanitize=thread", "--scratch-path", Self.raceScratchPath],
            in: layout.root, log: buildLog)
        guard build == 0 else {
            let log = (try? String(contentsOf: buildLog, encoding: .utf8)) ?? ""
            let errors = BuildDiagnostics.errorLines(in: log)
            out("The build failed, so no race check ran:\n" + errors.prefix(20).map { "  \($0)\n" }.joined())
            return 1
        }
        say("Running chapter \(chapter.folder)'s tests under Thread Sanitizer…")
        var environment = ProcessInfo.processInfo.environment
        environment["WORKBOOK_MODE"] = nil
        environment["WORKBOOK_SHARED_CHILD"] = nil
        // Reports go to files (child processes of exit tests send their stderr elsewhere), and a
        // report must not change a process's exit status: the tests' own verdict stays as it is.
        environment["TSAN_OPTIONS"] = "log_path=\(work.path)/tsan exitcode=0 halt_on_error=0"
        // Scenarios that race two threads on purpose play more rounds (see `raceRounds`).
        environment["WORKBOOK_RACE_ROUNDS"] = "1000"
        // A race shows only in the interleavings that happen, so a clean run is tried again
        // (three runs at most); the first run that sees a race ends the search.
        var report = RaceReport()
        for _ in 1...Self.raceRuns where report.races.isEmpty {
            let reports = (try? FileManager.default.contentsOfDirectory(atPath: work.path)) ?? []
            for name in reports where name.hasPrefix("tsan") {
                try? FileManager.default.removeItem(at: work.appendingPathComponent(name))
            }
            _ = try Subprocess.run(
                [
                    "swift", "test", "--skip-build", "--sanitize=thread", "--scratch-path", Self.raceScratchPath,
                    "--no-parallel", "--filter", chapter.testTarget,
                ],
                in: layout.root, log: work.appendingPathComponent("test.log"), environment: environment)
            let output = ((try? FileManager.default.contentsOfDirectory(atPath: work.path)) ?? [])
                .filter { $0.hasPrefix("tsan") }.sorted()
                .compactMap { try? String(contentsOf: work.appendingPathComponent($0), encoding: .utf8) }
                .joined(separator: "\n")
            report = RaceReport.parse(output, chapterFolder: chapter.folder)
        }
        report = report.demangled(by: demangle(report))
        let pointer = raceReadingPointer(for: chapter)
        out("Chapter \(chapter.folder): race check (Thread Sanitizer)\n\n")
        if report.races.isEmpty {
            out(
                "No data race seen in \(Self.raceRuns) runs. Thread Sanitizer reports the races that happen "
                    + "while the tests run; it saw none.\n")
            return 0
        }
        for paragraph in report.explanation(readingPointer: pointer) { out("✗ " + paragraph + "\n\n") }
        out("\(ClassTable.counted(report.races.count, "data race")) in chapter \(chapter.folder).\n")
        let usesMutex = TestHashes.exerciseFiles(chapter, in: layout).contains { path in
            RaceReport.usesMutex((try? String(contentsOf: layout.url(path), encoding: .utf8)) ?? "")
        }
        if usesMutex { out("\n" + RaceReport.mutexCaveat + "\n") }
        return 1
    }

    /// Readable names for mangled Swift symbols, from the toolchain's `swift demangle`.
    func demangle(_ report: RaceReport) -> [String: String] {
        let names = Array(Set(report.functionNames.filter { $0.hasPrefix("$s") }))
        guard !names.isEmpty,
            let result = Subprocess.capture(["swift", "demangle", "--simplified"] + names, in: layout.root)
        else { return [:] }
        var readable: [String: String] = [:]
        for line in String(decoding: result.output, as: UTF8.self).split(separator: "\n") {
            let parts = line.components(separatedBy: " ---> ")
            if parts.count == 2 { readable[parts[0]] = parts[1] }
        }
        return readable
    }

    /// Where a learner reads about the chapter's data races: its own section, if it names
    /// one, else the workbook README's.
    func raceReadingPointer(for chapter: Curriculum.Chapter) -> String {
        if let section = chapter.raceSection { return "'\(section)' in \(chapter.readmePath)" }
        return "'Data races the tests can't see' in README.md"
    }
}
