import Testing
import WorkbookTesting

/// The lessons that explain the diagnostics a learner may meet in this chapter's files.
private let diagnosticLessons: [DiagnosticLesson] = [
    DiagnosticLesson(Bugs.sharedStore, file: "Inventory.swift", containing: "Inventory"),
    DiagnosticLesson(Bugs.sharedStore, file: "Inventory.swift", containing: "concurrency-safe"),
    DiagnosticLesson(Bugs.deinitCallsMainActor, file: "MatchScreen.swift", group: "ActorIsolatedCall"),
    DiagnosticLesson(Bugs.deinitCallsMainActor, file: "MatchScreen.swift", containing: "main actor-isolated"),
]

@Suite("Chapter 24: the shop and the screen in the Swift 6 language mode")
struct Swift6CompileTests {
    @Test(
        "Inventory.swift compiles in Swift 6: the shared inventory is safe from the two actors",
        .exposesBug(Bugs.sharedStore))
    func inventoryCompiles() async {
        await swift6.expectNoDiagnostics(in: "Inventory.swift", explainedBy: diagnosticLessons)
    }

    @Test("MatchScreen.swift compiles in Swift 6")
    func matchScreenCompiles() async {
        await swift6.expectNoDiagnostics(in: "MatchScreen.swift", explainedBy: diagnosticLessons)
    }

    @Test("No escape hatch silences the compiler")
    func noEscapeHatches() {
        for hatch in swift6.escapeHatches() {
            switch hatch.kind {
            case .uncheckedSendable where !hatch.holdsLock:
                Bugs.unsafeOptOut.record("@unchecked Sendable on \(hatch.typeName ?? "a type") (\(hatch)).")
            case .nonisolatedUnsafe:
                Bugs.unsafeOptOut.record("nonisolated(unsafe) at \(hatch).")
            case .assumeIsolated:
                Bugs.assumeIsolatedDeinit.record(
                    "MainActor.assumeIsolated at \(hatch): it traps whenever this runs off the main actor.")
            case .uncheckedSendable, .preconcurrencyImport, .unsafeContinuation:
                break
            }
        }
    }
}
