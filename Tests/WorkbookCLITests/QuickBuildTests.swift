import Foundation
import Testing
import WorkbookCLI

/// A package with a hand-written build plan: two "modules" made by `cp` from their sources, a
/// "link" step that joins them, so which steps a quick build runs can be seen in the files, and a
/// step only SwiftPM runs whose output is a folder (like the copy of a target's resources).
private struct PlannedPackage {
    let workbook: TemporaryWorkbook
    var root: URL { workbook.root }
    static let product = "SamplePackageTests"

    init(_ workbook: TemporaryWorkbook) throws {
        self.workbook = workbook
        let out = root.appendingPathComponent(".build/out").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try workbook.write("Chapters/01-First/Exercise.swift", "first\n")
        try workbook.write("Sources/SimulatedWorld/Server.swift", "server\n")
        let first = root.appendingPathComponent("Chapters/01-First/Exercise.swift").path
        let server = root.appendingPathComponent("Sources/SimulatedWorld/Server.swift").path
        func json(_ list: [String]) -> String {
            "[" + list.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        }
        func shell(_ name: String, _ inputs: [String], _ output: String, _ script: String) -> String {
            """
              "\(name)":
                tool: shell
                inputs: \(json(inputs))
                outputs: \(json([output]))
                description: "\(name)"
                args: \(json(["/bin/sh", "-c", script + " && echo ran \(name) >> \(out)/log"]))

            """
        }
        let manifest =
            """
            client:
              name: basic
            tools: {}
            targets:
              "main": ["<all>"]
              "\(Self.product)-x86_64-unknown-linux-gnu-debug.test": ["<test>"]
            default: "main"
            nodes:
              "/ignored/":
                is-directory-structure: true
            commands:
              "<test>":
                tool: phony
                inputs: ["\(out)/product", "\(out)/"]
                outputs: ["<test>"]

              "<resources>":
                tool: copy-tool
                inputs: ["\(server)"]
                outputs: ["\(out)/"]

            """
            + shell("Server", [server], "\(out)/server", "cp \(server) \(out)/server")
            + shell(
                "First", [first, "\(out)/server"], "\(out)/first",
                "! grep -q BROKEN \(first) && cat \(out)/server \(first) > \(out)/first")
            + shell("Link", ["\(out)/first", "\(out)/server"], "\(out)/product", "cat \(out)/first > \(out)/product")
        try workbook.write(".build/debug.yaml", manifest)
        // What SwiftPM's first build would have done.
        try FileManager.default.copyItem(atPath: server, toPath: "\(out)/server")
        try "server\nfirst\n".write(toFile: "\(out)/first", atomically: true, encoding: .utf8)
        try "server\nfirst\n".write(toFile: "\(out)/product", atomically: true, encoding: .utf8)
    }

    var product: String? { workbook.read(".build/out/product") }

    /// The steps the last builds ran, and forgets them.
    func takeLog() -> [String] {
        let log = workbook.read(".build/out/log") ?? ""
        try? FileManager.default.removeItem(at: root.appendingPathComponent(".build/out/log"))
        return log.split(separator: "\n").map { String($0.dropFirst("ran ".count)) }
    }

    func build() throws -> QuickBuild.Outcome {
        try QuickBuild.run(
            product: Self.product, in: workbook.layout, environment: ProcessInfo.processInfo.environment,
            memoryLimitKilobytes: nil)
    }

    func record() {
        QuickBuild.record(
            product: Self.product, in: workbook.layout, sourcesBefore: QuickBuild.sourcesNow(in: workbook.layout))
    }
}

/// Copies `source` to `destination` with its modification time to the nanosecond: another
/// inode, the same time and size.
private func copyKeepingTime(_ source: URL, to destination: URL) throws {
    var info = stat()
    guard stat(source.path, &info) == 0 else { throw CocoaError(.fileReadUnknown) }
    try FileManager.default.copyItem(at: source, to: destination)
    #if os(Linux)
        var times = [info.st_atim, info.st_mtim]
    #else
        var times = [info.st_atimespec, info.st_mtimespec]
    #endif
    guard utimensat(AT_FDCWD, destination.path, &times, 0) == 0 else { throw CocoaError(.fileWriteUnknown) }
}

@Suite("Quick builds: only the steps whose inputs changed, without SwiftPM")
struct QuickBuildTests {
    @Test("An edit reruns the steps that depend on it, in order; nothing changed runs nothing")
    func rerunsWhatChanged() throws {
        try withTemporaryWorkbook { workbook in
            let package = try PlannedPackage(workbook)
            #expect(try package.build() == .unavailable(reason: "no record of an earlier build"))
            package.record()
            #expect(try package.build() == .built(log: ""))
            #expect(package.takeLog() == [])

            try workbook.write("Chapters/01-First/Exercise.swift", "first, fixed\n")
            guard case .built = try package.build() else {
                Issue.record("no quick build")
                return
            }
            #expect(package.takeLog() == ["First", "Link"], "the server's step did not need to run")
            #expect(package.product == "server\nfirst, fixed\n")

            _ = try package.build()
            #expect(package.takeLog() == [], "up to date, though the folder the resources go to changed")

            try workbook.write("Sources/SimulatedWorld/Server.swift", "server 2\n")
            #expect(
                try package.build()
                    == .unavailable(reason: "a step only SwiftPM can run (copy-tool) is out of date"))
        }
    }

    @Test("An output SwiftPM made again since is taken as it is; a missing one is made again")
    func adoptsSwiftPMOutputs() throws {
        try withTemporaryWorkbook { workbook in
            let package = try PlannedPackage(workbook)
            package.record()
            // `swift run` or `swift test` rebuilt a step from the same inputs: a new file.
            try FileManager.default.removeItem(at: package.root.appendingPathComponent(".build/out/first"))
            try workbook.write(".build/out/first", "server\nfirst\n")
            #expect(try package.build() == .built(log: ""))
            #expect(package.takeLog() == [], "nothing to do: the step's inputs are as recorded")
            #expect(try package.build() == .built(log: ""))
            #expect(package.takeLog() == [])

            try FileManager.default.removeItem(at: package.root.appendingPathComponent(".build/out/product"))
            _ = try package.build()
            #expect(package.takeLog() == ["Link"])
            #expect(package.product == "server\nfirst\n")
        }
    }

    @Test("A failing step fails the build, and runs again next time")
    func failingStep() throws {
        try withTemporaryWorkbook { workbook in
            let package = try PlannedPackage(workbook)
            package.record()
            try workbook.write("Chapters/01-First/Exercise.swift", "BROKEN\n")
            guard case .failed = try package.build() else {
                Issue.record("a step that fails must fail the build")
                return
            }
            #expect(package.takeLog() == [], "the link did not run after the failed step")
            try workbook.write("Chapters/01-First/Exercise.swift", "first, mended\n")
            _ = try package.build()
            #expect(package.takeLog() == ["First", "Link"])
            #expect(package.product == "server\nfirst, mended\n")
        }
    }

    @Test(
        "A file saved again within the second of the version built has its module's objects removed, to compile again")
    func editWithinTheSecondCompilesTheModuleAgain() throws {
        try withTemporaryWorkbook { workbook in
            let package = try PlannedPackage(workbook)
            #expect(QuickBuild.invalidateEditsWithinTheSecond(in: workbook.layout) == [], "no record yet")
            package.record()
            let module = try workbook.chapter(1).module
            let objects = [
                ".build/debug/\(module).build/Exercise.swift.o", ".build/debug/\(module).build/primary.priors",
            ]
            for path in objects { try workbook.write(path, "compiled") }
            let exercise = workbook.root.appendingPathComponent("Chapters/01-First/Exercise.swift")
            let built = try #require(
                try FileManager.default.attributesOfItem(atPath: exercise.path)[.modificationDate] as? Date)
            func save(_ text: String, at date: Date) throws {
                try workbook.write("Chapters/01-First/Exercise.swift", text)
                try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: exercise.path)
            }
            let second = built.timeIntervalSince1970.rounded(.down)

            // Copied with its time kept (another inode, the same time and size): not a save.
            let copy = exercise.appendingPathExtension("copy")
            try copyKeepingTime(exercise, to: copy)
            try FileManager.default.removeItem(at: exercise)
            try FileManager.default.moveItem(at: copy, to: exercise)
            #expect(QuickBuild.invalidateEditsWithinTheSecond(in: workbook.layout) == [])
            #expect(objects.allSatisfy(workbook.exists))

            // Saved in a later second: the driver sees it, nothing to do.
            try save("first, saved later\n", at: Date(timeIntervalSince1970: second + 1.5))
            #expect(QuickBuild.invalidateEditsWithinTheSecond(in: workbook.layout) == [])
            #expect(objects.allSatisfy(workbook.exists))

            // Saved within the same second as the version built: its module compiles again.
            let sameSecond = built.timeIntervalSince1970 - second < 0.5 ? second + 0.75 : second + 0.25
            try save("first, saved at once\n", at: Date(timeIntervalSince1970: sameSecond))
            #expect(
                QuickBuild.invalidateEditsWithinTheSecond(in: workbook.layout) == ["Chapters/01-First/Exercise.swift"])
            #expect(!objects.contains(where: workbook.exists), "the objects and the driver's records are gone")
        }
    }

    @Test("A file added, Package.swift edited or a different plan: SwiftPM must build")
    func fallsBackToSwiftPM() throws {
        try withTemporaryWorkbook { workbook in
            let package = try PlannedPackage(workbook)
            package.record()
            try workbook.write("Chapters/01-First/Another.swift", "more\n")
            #expect(try package.build() == .unavailable(reason: "Package.swift or the list of files changed"))

            package.record()
            try workbook.write("Package.swift", "// edited\n")
            #expect(try package.build() == .unavailable(reason: "Package.swift or the list of files changed"))

            package.record()
            let manifest = try #require(workbook.read(".build/debug.yaml"))
            try workbook.write(".build/debug.yaml", manifest)
            #expect(try package.build() == .built(log: ""), "the same plan written again")
            try workbook.write(".build/debug.yaml", manifest + "\n")
            #expect(try package.build() == .unavailable(reason: "SwiftPM planned a different build since"))
            #expect(package.takeLog() == [])
        }
    }
}
