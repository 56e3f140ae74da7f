import Testing
import WorkbookTesting

/// The exercise must compile in the Swift 6 language mode: each diagnostic is a lesson, at the learner's line.
@Suite("Chapter 13: the Swift 6 compile")
struct Swift6CompileTests {
    @Test(
        "PhotoExporter.swift compiles in the Swift 6 language mode",
        .exposesBug(Bugs.settingsNotSendable, Bugs.progressUnprotected, Bugs.batchNotHandedOver))
    func photoExporter() async {
        await swift6.expectNoDiagnostics(in: "PhotoExporter.swift", explainedBy: explainedDiagnostics)
    }

    @Test(
        "ExportScreen.swift compiles in the Swift 6 language mode",
        .exposesBug(Bugs.settingsNotSendable, Bugs.progressUnprotected, Bugs.batchFromScreenState))
    func exportScreen() async {
        await swift6.expectNoDiagnostics(in: "ExportScreen.swift", explainedBy: explainedDiagnostics)
    }

    @Test("ExportSettings.swift, ExportProgress.swift, UploadBatch.swift and any other file compile in Swift 6")
    func otherFiles() async {
        let checkedAbove: Set = ["PhotoExporter.swift", "ExportScreen.swift"]
        for file in swift6.sourceFiles.map(\.lastPathComponent) where !checkedAbove.contains(file) {
            await swift6.expectNoDiagnostics(in: file, explainedBy: explainedDiagnostics)
        }
    }

    @Test("No escape hatch hides a data race (@unchecked Sendable with no lock, nonisolated(unsafe))")
    func noEscapeHatch() {
        for hatch in swift6.escapeHatches() {
            let location = swift6.learnerLocation(file: hatch.file, line: hatch.line) ?? #_sourceLocation
            switch hatch.kind {
            case .uncheckedSendable where !hatch.holdsLock && !hatch.mutableProperties.isEmpty:
                let properties = hatch.mutableProperties.map { "var \($0)" }.joined(separator: ", ")
                Bugs.uncheckedSendableWithoutLock.record(
                    "\(hatch.file):\(hatch.line): `\(hatch.sourceLine)`: \(hatch.typeName ?? "this type") has \(properties) and no lock.",
                    sourceLocation: location)
            case .nonisolatedUnsafe:
                Bugs.nonisolatedUnsafe.record(
                    "\(hatch.file):\(hatch.line): `\(hatch.sourceLine)`", sourceLocation: location)
            default:
                continue
            }
        }
    }
}
