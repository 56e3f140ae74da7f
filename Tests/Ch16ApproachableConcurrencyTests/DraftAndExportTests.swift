import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch16ApproachableConcurrencySolution
#else
    import Ch16ApproachableConcurrency
#endif

@Suite("Chapter 16: drafts and the album export")
@MainActor
struct DraftAndExportTests {
    @Test("Saving a draft stores every edit so far, in order")
    func draftHoldsTheEdits() async throws {
        let scene = EditorScene(photo: RawPhoto(id: "forest"))
        scene.model.apply("crop 4:3")
        scene.model.apply("exposure +0.3")
        let model = scene.model
        guard await awaitResult(of: { try await model.saveDraft() }, orRecord: Bugs.draftWrong) != nil else { return }
        scene.model.apply("vignette")
        guard await awaitResult(of: { try await model.saveDraft() }, orRecord: Bugs.draftWrong) != nil else { return }
        let drafts = scene.store.drafts.map { "\($0.photoID): \($0.edits)" }
        #expect(
            drafts == [
                #"forest: ["crop 4:3", "exposure +0.3"]"#, #"forest: ["crop 4:3", "exposure +0.3", "vignette"]"#,
            ],
            Bugs.draftWrong.comment)
        #expect(scene.model.edits == ["crop 4:3", "exposure +0.3", "vignette"], Bugs.draftWrong.comment)
    }

    @Test("A save whose task is cancelled throws CancellationError, not success")
    func cancelledSaveThrows() async {
        let scene = EditorScene(photo: RawPhoto(id: "forest"))
        scene.model.apply("crop 4:3")
        let model = scene.model
        // The task runs on the main actor, which this test holds until it awaits the result:
        // the cancel lands before the save starts.
        let save = Task { try await model.saveDraft() }
        save.cancel()
        let result = await save.result
        if case .success = result {
            Bugs.cancelledSaveSucceeds.record(
                "saveDraft() returned normally from a cancelled task, and the store holds \(scene.store.drafts.count) drafts."
            )
        }
    }

    // The export runs in a child process (an exit test): a conformance that assumes the main
    // actor traps when the writer calls it elsewhere, and the trap must end only this scenario.
    @Test("Exporting an album writes the cover and every photo, off the main actor")
    nonisolated func exportWritesEverything() async {
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .success, Bugs.conformanceAssumesMainActor.comment) {
                [log = log as CrashLog] in
                await log.runScenario { await exportScenario() }
            }
        }
        log.explain(run, as: Bugs.conformanceAssumesMainActor)
    }
}

/// Exports a two-photo album and checks the archive and where it was written.
@MainActor
private func exportScenario() async {
    let scene = EditorScene()
    let model = scene.model
    let photos = [RawPhoto(id: "beach"), RawPhoto(id: "city", tileCount: 2)]
    let result = await awaitResult(
        of: { await model.exportAlbum(named: "Summer", photos: photos) }, within: heavyWorkLimit(probes: 1),
        orRecord: Bugs.archiveIncomplete)
    guard let archive = result?.value else { return }
    #expect(
        archive.entries.map(\.title) == ["Summer", "Photo beach", "Photo city"],
        "\(Bugs.archiveIncomplete.message)\ntitles: \(archive.entries.map(\.title))")
    #expect(
        archive.entries.map(\.body) == ["2 photos", "beach: 4 tiles", "city: 2 tiles"], Bugs.archiveIncomplete.comment)
    recordMainActorFindings(scene.writer.writes.map(\.mainActor), of: "archives", onActor: Bugs.archiveOnMainActor)
}
