import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch16ApproachableConcurrencySolution
#else
    import Ch16ApproachableConcurrency
#endif

/// The chapter's Swift 6 compile, with the same settings as its target in Package.swift:
/// main actor by default and Xcode's two "Approachable Concurrency" upcoming features.
let swift6 = Swift6Check(
    chapter: "16-ApproachableConcurrency", module: "Ch16ApproachableConcurrency",
    flags: [
        "-default-isolation", "MainActor",
        "-enable-upcoming-feature", "NonisolatedNonsendingByDefault",
        "-enable-upcoming-feature", "InferIsolatedConformances",
    ])

/// The lessons that explain the diagnostics a learner may meet in this chapter's files.
private let diagnosticLessons: [DiagnosticLesson] = [
    DiagnosticLesson(Bugs.historySent, file: "Drafts.swift", containing: "history"),
    DiagnosticLesson(Bugs.conformanceSent, containing: "isolated conformance"),
    DiagnosticLesson(Bugs.conformanceSent, file: "Export.swift", group: "SendingRisksDataRace"),
    DiagnosticLesson(Bugs.conformanceSent, file: "Export.swift", group: "ConformanceIsolation"),
    DiagnosticLesson(Bugs.mainActorStateOffActor, containing: "main actor-isolated"),
]

@Suite("Chapter 16: the app module in the Swift 6 language mode")
struct Swift6CompileTests {
    @Test(
        "Drafts.swift compiles in Swift 6: the edit history is not sent off the main actor",
        .exposesBug(Bugs.historySent))
    func draftsCompile() async {
        await swift6.expectNoDiagnostics(in: "Drafts.swift", explainedBy: diagnosticLessons)
    }

    @Test(
        "Export.swift compiles in Swift 6: no main-actor-isolated conformance goes to the archive writer",
        .exposesBug(Bugs.conformanceSent))
    func exportCompiles() async {
        await swift6.expectNoDiagnostics(in: "Export.swift", explainedBy: diagnosticLessons)
    }

    @Test("AutoEnhance.swift and EditorModel.swift compile in Swift 6")
    func otherFilesCompile() async {
        await swift6.expectNoDiagnostics(in: "AutoEnhance.swift", explainedBy: diagnosticLessons)
        await swift6.expectNoDiagnostics(in: "EditorModel.swift", explainedBy: diagnosticLessons)
    }

    @Test("No escape hatch silences the compiler")
    func noEscapeHatches() {
        for hatch in swift6.escapeHatches() {
            switch hatch.kind {
            case .uncheckedSendable where !hatch.holdsLock:
                let properties = hatch.mutableProperties.map { "var \($0)" }.joined(separator: ", ")
                let lesson = hatch.typeName == "EditHistory" ? Bugs.uncheckedHistory : Bugs.unsafeOptOut
                lesson.record(
                    "@unchecked Sendable on \(hatch.typeName ?? "a type") (\(hatch)), whose \(properties.isEmpty ? "state" : properties) has no lock."
                )
            case .nonisolatedUnsafe:
                Bugs.unsafeOptOut.record("nonisolated(unsafe) at \(hatch).")
            case .assumeIsolated:
                Bugs.conformanceAssumesMainActor.record(
                    "MainActor.assumeIsolated at \(hatch): it traps whenever this runs off the main actor.")
            case .uncheckedSendable, .preconcurrencyImport, .unsafeContinuation:
                break
            }
        }
    }
}
