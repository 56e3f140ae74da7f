import Foundation
import SimulatedWorld
import Testing
import WorkbookCLI

@Suite("The command line")
struct CommandTests {
    @Test("No arguments means list; each command takes its arguments")
    func parsing() throws {
        #expect(try Command.parse([]) == .list)
        #expect(try Command.parse(["list"]) == .list)
        #expect(try Command.parse(["check", "01"]) == .check(chapter: "01"))
        #expect(try Command.parse(["check"]) == .check(chapter: nil), "the chapter you are on")
        #expect(try Command.parse(["hint"]) == .hint(chapter: nil, number: nil))
        #expect(try Command.parse(["hint", "2"]) == .hint(chapter: "2", number: nil))
        #expect(try Command.parse(["hint", "2", "3"]) == .hint(chapter: "2", number: 3))
        #expect(try Command.parse(["hint", "2", "0"]) == .hint(chapter: "2", number: 0), "the chapter's range decides")
        #expect(try Command.parse(["watch"]) == .watch(chapter: nil))
        #expect(try Command.parse(["watch", "Ch01Continuations"]) == .watch(chapter: "Ch01Continuations"))
        #expect(try Command.parse(["reset", "01-Continuations"]) == .reset(chapter: "01-Continuations"))
        #expect(try Command.parse(["verify"]) == .verify(options: []))
        #expect(try Command.parse(["verify", "--no-fix-check"]) == .verify(options: ["--no-fix-check"]))
        #expect(try Command.parse(["student-edition", "/tmp/x"]) == .studentEdition(directory: "/tmp/x"))
        #expect(try Command.parse(["hashes"]) == .hashes(update: false))
        #expect(try Command.parse(["hashes", "--update"]) == .hashes(update: true))
    }

    @Test("--help works for the tool and for every command")
    func help() throws {
        #expect(try Command.parse(["--help"]) == .help(nil))
        #expect(try Command.parse(["-h"]) == .help(nil))
        #expect(try Command.parse(["help"]) == .help(nil))
        for name in CommandName.allCases {
            #expect(try Command.parse([name.rawValue, "--help"]) == .help(name))
            #expect(try Command.parse(["help", name.rawValue]) == .help(name))
            #expect(Help.text(for: name).hasPrefix("Usage: swift run workbook"))
            #expect(Help.overview.contains(name.rawValue), "the overview omits \(name.rawValue)")
        }
        // --help wins even where the other arguments would be wrong.
        #expect(try Command.parse(["check", "--help"]) == .help(.check))
        #expect(try Command.parse(["hint", "x", "y", "-h"]) == .help(.hint))
    }

    @Test(
        "A command line that cannot run is one line that names the choices",
        arguments: [
            (["frobnicate"], "unknown command 'frobnicate'; choose one of: list, check, hint"),
            (["check", "1", "2"], "check: unexpected argument '2'"),
            (["check", "--fast"], "check: unknown option '--fast'"),
            (["hint", "1", "zero"], "hint: n must be a hint number"),
            (["verify", "now"], "verify: unexpected argument 'now'"),
            (["student-edition"], "student-edition: missing <dir>"),
            (["help", "nope"], "help: unknown command 'nope'"),
            (["list", "extra"], "list: unexpected argument 'extra'"),
        ])
    func usageErrors(arguments: [String], message: String) {
        #expect(throws: UsageError.self) { try Command.parse(arguments) }
        do {
            _ = try Command.parse(arguments)
        } catch {
            #expect(error.message.hasPrefix(message), "got: \(error.message)")
            #expect(!error.message.contains("\n"))
        }
    }

    @Test("Unknown commands and chapters exit with 2 and one line listing the valid choices")
    func exitCodes() throws {
        try withTemporaryWorkbook { workbook in
            let printed = Captured()
            let tool = Workbook(
                workingDirectory: workbook.root.appendingPathComponent("Chapters"), out: printed.out, err: printed.err)

            #expect(tool.run(["bogus"]) == 2)
            #expect(
                printed.takeErrors() == "workbook: unknown command 'bogus'; choose one of: \(CommandName.choices)\n")

            #expect(tool.run(["hint", "nine"]) == 2)
            #expect(
                printed.takeErrors()
                    == "workbook: no chapter 'nine'; choose one of: 01-First, 02-Second (or a number 1-2, or a module name)\n"
            )

            #expect(tool.run(["reset", "7"]) == 2)
            #expect(printed.takeErrors().hasPrefix("workbook: no chapter '7'"))

            #expect(tool.run(["check", "--help"]) == 0)
            #expect(printed.takeOutput().hasPrefix("Usage: swift run workbook check [chapter]"))
        }
    }

    @Test("Chapters are found by number, folder or module name")
    func chapterNames() throws {
        try withTemporaryWorkbook { workbook in
            let printed = Captured()
            let tool = Workbook(workingDirectory: workbook.root, out: printed.out, err: printed.err)
            for name in ["2", "02", "02-Second", "ch02second"] {
                #expect(tool.run(["hint", name]) == 0)
                #expect(printed.takeOutput().contains("for chapter 02: only hint"), "named \(name)")
            }
        }
    }

    @Test("Outside a workbook, the tool says where to run it")
    func outsideAWorkbook() {
        let printed = Captured()
        let tool = Workbook(workingDirectory: URL(fileURLWithPath: "/"), out: printed.out, err: printed.err)
        #expect(tool.run(["list"]) == 2)
        #expect(printed.takeErrors().contains("no workbook here"))
    }
}

/// Collects what a `Workbook` prints.
final class Captured: Sendable {
    private let output = Locked("")
    private let errors = Locked("")

    var out: @Sendable (String) -> Void { { text in self.output.withLock { $0 += text } } }
    var err: @Sendable (String) -> Void { { text in self.errors.withLock { $0 += text } } }

    func takeOutput() -> String {
        output.withLock { value in
            defer { value = "" }
            return value
        }
    }
    func takeErrors() -> String {
        errors.withLock { value in
            defer { value = "" }
            return value
        }
    }
}
