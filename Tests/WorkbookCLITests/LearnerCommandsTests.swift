import Foundation
import Testing
import WorkbookCLI

@Suite("How a learner run builds and runs the tests")
struct LearnerCommandsTests {
    @Test("On Linux: build only the test product, then run the test executable with Swift Testing's options")
    func buildThenRunDirectly() throws {
        try withTemporaryWorkbook { workbook in
            try workbook.write(
                "Package.swift",
                """
                // swift-tools-version: 6.2
                let package = Package(
                    name: "Sample",
                    traits: [.trait(name: "Solutions")],
                    targets: [])
                """)
            #expect(workbook.layout.packageName == "Sample")
            #expect(workbook.layout.testProductName == "SamplePackageTests")
            let commands = LearnerCommands(
                for: [try workbook.chapter(1), try workbook.chapter(2)], in: workbook.layout, runBinaryDirectly: true)
            #expect(
                commands.build == ["swift", "build", "--product", "SamplePackageTests", "--disable-default-traits"])
            let binary = workbook.root.appendingPathComponent(".build/debug/SamplePackageTests.xctest").path
            #expect(
                commands.test == [
                    binary, "--testing-library", "swift-testing", "--filter", "Ch01FirstTests", "--filter",
                    "Ch02SecondTests",
                ])
        }
    }

    @Test("Elsewhere, or without a readable package name: one swift test builds and runs")
    func swiftTestOtherwise() throws {
        try withTemporaryWorkbook { workbook in
            // The temporary workbook's Package.swift names no package and declares no traits.
            #expect(workbook.layout.packageName == nil)
            let chapter = try workbook.chapter(1)
            let unnamed = LearnerCommands(for: [chapter], in: workbook.layout, runBinaryDirectly: true)
            #expect(unnamed == LearnerCommands(build: nil, test: ["swift", "test", "--filter", "Ch01FirstTests"]))
            try workbook.write("Package.swift", "let package = Package(\n    name: \"Sample\",\n    targets: [])\n")
            let macOS = LearnerCommands(for: [chapter], in: workbook.layout, runBinaryDirectly: false)
            #expect(macOS == LearnerCommands(build: nil, test: ["swift", "test", "--filter", "Ch01FirstTests"]))
        }
    }
}
