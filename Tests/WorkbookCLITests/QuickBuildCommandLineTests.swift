import Testing

@testable import WorkbookCLI

@Suite("Quick builds: the compiler's messages as text")
struct QuickBuildCommandLineTests {
    @Test("A step runs without -parseable-output, so a compile error reads as SwiftPM prints it")
    func withoutParseableOutput() {
        let arguments = ["/usr/bin/swiftc", "-module-name", "Ch05UITransitions", "-parseable-output", "-c", "A.swift"]
        #expect(
            QuickBuild.commandLine(arguments) == [
                "/usr/bin/swiftc", "-module-name", "Ch05UITransitions", "-c", "A.swift",
            ])
    }
}
