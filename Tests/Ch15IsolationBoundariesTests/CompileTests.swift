import Testing
import WorkbookTesting

@Suite("Chapter 15: the camera screen in the Swift 6 language mode")
struct CompileTests {
    @Test("Every file compiles in the Swift 6 language mode", .exposesBug(Bugs.progressBarSent))
    func swift6Compile() async {
        await swift6.expectNoDiagnostics(explainedBy: [
            DiagnosticLesson(Bugs.progressBarSent, file: "PhotoExport.swift", group: "SendingRisksDataRace"),
            DiagnosticLesson(Bugs.progressBarSent, containing: "progress"),
            DiagnosticLesson(Bugs.conformanceCrossesIsolation, group: "ConformanceIsolation"),
            DiagnosticLesson(Bugs.mainActorCallFromNonisolated, group: "ActorIsolatedCall"),
            DiagnosticLesson(Bugs.sendsAcrossIsolation, group: "SendingRisksDataRace"),
            DiagnosticLesson(Bugs.sendsAcrossIsolation, containing: "Sendable"),
        ])
    }
}
