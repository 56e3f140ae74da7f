@preconcurrency import LegacyCameraSDK
import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch15IsolationBoundariesSolution
#else
    import Ch15IsolationBoundaries
#endif

@Suite("Chapter 15: the export, and its progress bar")
@MainActor
struct ExportTests {
    let ids = ["photo-1", "photo-2", "photo-3"]

    @Test(
        "Exporting updates the progress bar on the main actor", .exposesBug(Bugs.progressOffMainActor))
    func progressOnTheMainActor() async {
        let roll = CameraRoll()
        let screen = CameraScreen(session: CameraSession(), cameraRoll: roll, photoIDs: ids)
        await screen.exportAll()
        let offMain = screen.exportProgress.updates.filter { !$0.onMainActor }
        if !offMain.isEmpty {
            Bugs.progressOffMainActor.record(
                "\(offMain.count) of the \(screen.exportProgress.updates.count) updates (\(offMain)) ran off the main actor."
                    + silencedChecks(in: "PhotoExport.swift"))
        }
        #expect(roll.saved == ids, Bugs.exportIncomplete.comment)
    }

    @Test("When exportAll() returns, the progress bar shows every photo done")
    func progressDoneOnReturn() async {
        let screen = CameraScreen(session: CameraSession(), cameraRoll: CameraRoll(), photoIDs: ids)
        await screen.exportAll()
        let updates = screen.exportProgress.updates
        let shown = updates.last.map { "\($0)" } ?? "nothing"
        if updates.last?.completed != 3 || updates.last?.total != 3 {
            Bugs.progressLate.record("Right after exportAll() returned, the bar showed \(shown), not 3 of 3.")
        }
    }

    @Test("The progress bar never shows a photo done before the camera roll has saved it")
    func progressFollowsTheSaves() async {
        let roll = CameraRoll()
        let screen = CameraScreen(session: CameraSession(), cameraRoll: roll, photoIDs: ids)
        // What the camera roll had saved at the first update that ran ahead of it.
        let ahead = Locked<(shown: String, saved: Int)?>(nil)
        screen.exportProgress.onUpdate = { @Sendable update in
            let saved = roll.saved.count
            if update.completed > saved { ahead.withLock { $0 = $0 ?? ("\(update)", saved) } }
        }
        await screen.exportAll()
        if let (shown, saved) = ahead.withLock({ $0 }) {
            Bugs.progressAhead.record("The bar showed \(shown) while the camera roll had saved \(saved) of them.")
        }
    }
}
