import Foundation
import Testing

@testable import WorkbookTesting

@Suite("Swift6Check: the Swift 6 compile as a test")
struct Swift6CheckTests {
    static let sample = """
        /w/Chapters/13-X/Screen.swift:48:21: error: passing closure as a 'sending' parameter risks causing data races between main actor-isolated code and concurrent execution of the closure [#SendingClosureRisksDataRace]
                return Task.detached { [exporter, settings] in
                            ^
        /w/Chapters/13-X/Screen.swift:49:28: note: closure captures non-Sendable 'settings'
                    await exporter.export(photos, settings: settings)
                                                  ^
        /w/Chapters/13-X/Counter.swift:3:5: warning: var 'count' was never mutated; consider changing to 'let' constant
            var count = 0
            ^~~
        """

    @Test("Parses llvm-style diagnostics, their groups, code lines and notes")
    func parsesDiagnostics() {
        let diagnostics = CompilerDiagnostic.parse(llvmStyle: Self.sample)
        #expect(diagnostics.count == 2)
        let first = diagnostics[0]
        #expect(first.file == "Screen.swift" && first.line == 48 && first.column == 21)
        #expect(first.severity == .error && first.group == "SendingClosureRisksDataRace")
        #expect(first.message.hasSuffix("concurrent execution of the closure"))
        #expect(first.sourceLine == "return Task.detached { [exporter, settings] in")
        #expect(
            first.notes == [.init(file: "Screen.swift", line: 49, message: "closure captures non-Sendable 'settings'")])
        #expect(diagnostics[1].severity == .warning && diagnostics[1].group == nil)
    }

    @Test("A diagnostic lesson matches on file, group and text together")
    func lessonMatching() {
        let diagnostic = CompilerDiagnostic.parse(llvmStyle: Self.sample)[0]
        let lesson = Lesson(chapter: "13-X", bug: "b", explanation: "e", section: "s")
        #expect(
            DiagnosticLesson(lesson, file: "Screen.swift", containing: "non-Sendable 'settings'").matches(diagnostic))
        #expect(!DiagnosticLesson(lesson, file: "Other.swift").matches(diagnostic))
        #expect(!DiagnosticLesson(lesson, group: "SendingRisksDataRace").matches(diagnostic))
    }

    @Test("Finds escape hatches, and whether an @unchecked Sendable type holds a lock")
    func findsEscapeHatches() {
        let source = """
            import Foundation
            @preconcurrency import Dispatch
            // final class Commented: @unchecked Sendable { var x = 0 }
            final class Counter: @unchecked Sendable {
                var count = 0
                var doubled: Int { count * 2 }
                static var shared = 0
                let text = "nonisolated(unsafe)"
            }
            final class Guarded: @unchecked Sendable {
                private let lock = NSLock()
                private var value = 0
            }
            nonisolated(unsafe) var global = 0
            func f() { MainActor.assumeIsolated { } }
            """
        let hatches = EscapeHatch.scan(source, file: "Counter.swift")
        #expect(
            hatches.map(\.kind) == [
                .preconcurrencyImport, .uncheckedSendable, .uncheckedSendable, .nonisolatedUnsafe, .assumeIsolated,
            ])
        let counter = hatches[1]
        #expect(counter.typeName == "Counter" && counter.line == 4 && !counter.holdsLock)
        #expect(counter.mutableProperties == ["count"])
        #expect(hatches[2].typeName == "Guarded" && hatches[2].holdsLock && hatches[2].mutableProperties == ["value"])
    }

    /// A file whose only Swift 6 error is a region error, on line 4.
    static let racyBox = """
        final class Box { var value = 0 }
        func share() async {
            let box = Box()
            Task { box.value += 1 }
            box.value += 1
        }
        """

    @Test("Compiles files in the Swift 6 language mode, once, and finds region errors")
    func compilesInSwift6Mode() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swift6check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.racyBox.write(to: folder.appendingPathComponent("Box.swift"), atomically: true, encoding: .utf8)
        let check = Swift6Check(chapter: "13-X", module: "Probe", sourceFolder: folder)
        let diagnostics = try #require(await check.diagnostics())
        #expect(diagnostics.map(\.group) == ["SendingRisksDataRace"])
        #expect(diagnostics.first?.file == "Box.swift" && diagnostics.first?.line == 4)
    }

    @Test("A later process reuses a compile only when the compiler, arguments, files and modules are the same")
    func reusesACompileOnlyForTheSameInputs() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("swift6store-\(UUID().uuidString)")
        let sources = root.appendingPathComponent("Sources")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let box = sources.appendingPathComponent("Box.swift")
        try Self.racyBox.write(to: box, atomically: true, encoding: .utf8)
        let check = Swift6Check(chapter: "13-X", module: "Probe", sourceFolder: sources)
        let store = CompileResultStore(folder: root.appendingPathComponent("Store"))
        let command = try SwiftCompiler.command.get()
        func inputs(modules: String? = SwiftCompiler.modulesFolder, arguments: [String]? = nil) throws -> Data {
            try #require(
                CompileResultStore.inputs(
                    command: command, arguments: arguments ?? check.compilerArguments(), files: check.sourceFiles,
                    modulesFolder: modules))
        }
        func groups() async throws -> [String?] {
            // A cache of its own: what a new test process would start with.
            try await Swift6CompileCache(store: store).outcome(of: check).get().map(\.group)
        }

        // A result the compiler would never print, stored for these very inputs, is what comes back.
        store.save(
            .init(status: 1, output: "\(box.path):1:1: error: kept in the store [#StoreProbe]\n"), for: try inputs())
        #expect(try await groups() == ["StoreProbe"], "the stored compile of the same inputs is reused")

        // One more byte in a source file: the compiler runs, and its result is stored.
        let handle = try FileHandle(forWritingTo: box)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\n".utf8))
        try handle.close()
        #expect(try await groups() == ["SendingRisksDataRace"], "a changed file is compiled again")
        #expect(store.run(for: try inputs()) != nil, "the new compile is stored for the next process")

        // Other arguments, or a module rewritten by a build, are other inputs.
        #expect(try inputs(arguments: check.compilerArguments() + ["-DPROBE"]) != inputs())
        let modules = root.appendingPathComponent("Modules")
        try FileManager.default.createDirectory(at: modules, withIntermediateDirectories: true)
        let module = modules.appendingPathComponent("SimulatedWorld.swiftmodule")
        try Data("1".utf8).write(to: module)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1)], ofItemAtPath: module.path)
        let before = try inputs(modules: modules.path)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 2)], ofItemAtPath: module.path)
        #expect(try inputs(modules: modules.path) != before, "a rebuilt module changes the inputs")
    }

    @Test("The store keeps the entries written or used last")
    func keepsTheEntriesUsedLast() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swift6store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var store = CompileResultStore(folder: folder)
        store.capacity = 2
        let files = FileManager.default
        func save(_ index: Int) throws {
            store.save(.init(status: 0, output: "\(index)"), for: Data("inputs \(index)".utf8))
            // File times can be coarser than a test's steps: the new entry gets a time of its own.
            for name in try files.contentsOfDirectory(atPath: folder.path) {
                let path = folder.appendingPathComponent(name).path
                let modified = try files.attributesOfItem(atPath: path)[.modificationDate] as? Date
                if (modified ?? .distantPast) > Date(timeIntervalSince1970: 1000) {
                    try files.setAttributes(
                        [.modificationDate: Date(timeIntervalSince1970: Double(index))], ofItemAtPath: path)
                }
            }
        }
        func stored(_ index: Int) -> String? { store.run(for: Data("inputs \(index)".utf8))?.output }

        try save(0)
        try save(1)
        #expect(stored(0) == "0", "an entry is found by its inputs")
        store.save(.init(status: 0, output: "2"), for: Data("inputs 2".utf8))
        #expect(try files.contentsOfDirectory(atPath: folder.path).count == 2)
        #expect(stored(1) == nil, "the entry used longest ago is removed")
        #expect(stored(0) == "0" && stored(2) == "2", "the entry just used and the new one are kept")
    }

    @Test("Finds the compiler, honours WORKBOOK_SWIFTC, and says why when it can't")
    func locatesCompiler() throws {
        let found = try SwiftCompiler.locate(environment: ["PATH": ""]).get()
        #expect(found.last?.hasSuffix("swiftc") == true, "the toolchain that runs the tests has a swiftc")
        let chosen = try SwiftCompiler.locate(environment: ["WORKBOOK_SWIFTC": found[0]]).get()
        #expect(chosen == [found[0]])
        guard case .failure(let why) = SwiftCompiler.locate(environment: ["WORKBOOK_SWIFTC": "/nowhere/swiftc"]) else {
            Issue.record("a WORKBOOK_SWIFTC that is not a file was accepted")
            return
        }
        #expect(why.description.contains("WORKBOOK_SWIFTC=/nowhere/swiftc"))
    }
}
