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

    @Test("Compiles files in the Swift 6 language mode, once, and finds region errors")
    func compilesInSwift6Mode() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swift6check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
        final class Box { var value = 0 }
        func share() async {
            let box = Box()
            Task { box.value += 1 }
            box.value += 1
        }
        """.write(to: folder.appendingPathComponent("Box.swift"), atomically: true, encoding: .utf8)
        let check = Swift6Check(chapter: "13-X", module: "Probe", sourceFolder: folder)
        let diagnostics = try #require(await check.diagnostics())
        #expect(diagnostics.map(\.group) == ["SendingRisksDataRace"])
        #expect(diagnostics.first?.file == "Box.swift" && diagnostics.first?.line == 4)
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
