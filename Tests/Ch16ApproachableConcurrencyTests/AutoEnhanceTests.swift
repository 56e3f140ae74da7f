import Dispatch
import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch16ApproachableConcurrencySolution
#else
    import Ch16ApproachableConcurrency
#endif

private let reading = ChapterReading("16-ApproachableConcurrency")

/// What can go wrong in this chapter, in the learner's words.
enum Bugs {
    static let tilesOnMainActor = reading.lesson(
        "the auto-enhance's tiles are enhanced on the main actor",
        "enhanceTiles(of:with:) in AutoEnhance.swift is a nonisolated async function, and with NonisolatedNonsendingByDefault such a function runs on its caller's actor: called from the model, its CPU-heavy tiles hold the main actor and the screen freezes. Mark it @concurrent, and mark any synchronous helper it calls nonisolated (in this module a plain function is on the main actor)",
        section: "A nonisolated async function runs on its caller's actor")
    static let mainActorBlocked = reading.lesson(
        "the main actor is blocked while the work runs elsewhere",
        "the work ran off the main actor, but the main actor could run nothing meanwhile: code on the main actor waited for it without suspending (DispatchQueue.sync, a semaphore, a lock). Await a @concurrent function instead: the main actor is free while it waits",
        section: "Not Task.detached, not a blocking wait")
    static let cancelIgnored = reading.lesson(
        "cancelling the auto-enhance doesn't stop the work",
        "the tiles went on after the task that called autoEnhance() was cancelled: work started with Task.detached (or Task { }) inside the function belongs to a task of its own, which the caller's cancel never reaches. A @concurrent function runs in the caller's task, so it sees the cancel",
        section: "Not Task.detached, not a blocking wait")
    static let statusEarly = reading.lesson(
        "the status is not enhancing while the tiles are being enhanced",
        "autoEnhance() shows .enhancing from its start until every tile is done, and only then .enhanced (or .cancelled): set the final status after the await that enhances the tiles, not before it",
        section: "@concurrent: leave the caller's actor")
    static let enhanceIncomplete = reading.lesson(
        "the auto-enhance does not enhance every tile",
        "autoEnhance() must enhance each tile of the photo once, in order, and then show the enhanced photo",
        section: "@concurrent: leave the caller's actor")
    static let historySent = reading.lesson(
        "the edit history is sent into a @concurrent function",
        "writeDraft in Drafts.swift is @concurrent, so its arguments leave the main actor, but EditHistory is a non-Sendable class that the model keeps changing there. The function only waits for the disk: drop @concurrent, so that it runs on its caller's actor (nonisolated(nonsending)) and may use the caller's state, or give it a Sendable copy of the edits",
        section: "What crosses into a @concurrent function")
    static let draftWrong = reading.lesson(
        "the draft does not hold the edits",
        "saveDraft() must save every edit made so far, in order, as the photo's draft",
        section: "What crosses into a @concurrent function")
    static let cancelledSaveSucceeds = reading.lesson(
        "a cancelled save reports success",
        "the draft store throws CancellationError when the saving task is cancelled; saveDraft() and writeDraft must pass that error on with try, not swallow it with try?, or the caller believes an unsaved draft is saved",
        section: "What crosses into a @concurrent function")
    static let saveFailureSwallowed = reading.lesson(
        "a failed save reports success",
        "the draft store throws DraftStoreError.diskFull when it can't write the draft; saveDraft() must pass that error on with try, not swallow it with try?, so that the user knows the draft is not saved. The next save then works as usual",
        section: "Your task")
    static let uncheckedHistory = reading.lesson(
        "EditHistory is marked @unchecked Sendable without a lock",
        "that silences the compiler, but nothing changed: a @concurrent function still reads and changes the history while the main actor changes it too, a data race the compiler can no longer report. The function doesn't need to leave the main actor at all",
        section: "What crosses into a @concurrent function")
    static let unsafeOptOut = reading.lesson(
        "nonisolated(unsafe) hides a data race from the compiler",
        "nonisolated(unsafe) tells the compiler to stop checking a value that really is shared across isolation; the race is still there. Decide where the value belongs instead: on the caller's actor (no @concurrent), or copied into a Sendable value",
        section: "Reading the Swift 6 diagnostics")
    static let conformanceSent = reading.lesson(
        "a main-actor-isolated conformance is sent to the @concurrent archive writer",
        "in this module PhotoDocument and AlbumCover (Export.swift) are on the main actor, and so are their conformances to ExportableDocument: an `any ExportableDocument` made with them belongs to the main actor and can't be sent to writeArchive. Their requirements only read lets of Sendable values, so they need no actor: make the types (or the conformances and their requirements) nonisolated",
        section: "Isolated conformances")
    static let archiveOnMainActor = reading.lesson(
        "the archive is written on the main actor",
        "writeArchive(_:with:) in Export.swift must stay @concurrent: compressing is CPU-heavy, and without @concurrent a nonisolated async function runs on its caller's actor, here the main actor",
        section: "A nonisolated async function runs on its caller's actor")
    static let conformanceAssumesMainActor = reading.lesson(
        "a conformance assumes the main actor, and the archive writer calls it elsewhere",
        "a nonisolated requirement that wraps its body in MainActor.assumeIsolated traps as soon as the writer calls it off the main actor, as writeArchive does. That is the pre-6.2 workaround for an isolated conformance; here the requirements need no actor at all: make the document types nonisolated",
        section: "Isolated conformances")
    static let archiveIncomplete = reading.lesson(
        "the archive does not hold every document",
        "exportAlbum(named:photos:) must write the cover page and then one document per photo, in order, into one archive",
        section: "Isolated conformances")
    static let mainActorStateOffActor = reading.lesson(
        "code off the main actor touches the main actor's state",
        "in this module everything is on the main actor unless it says nonisolated or @concurrent; a @concurrent or nonisolated function can't read the model's properties or call its methods synchronously. Pass the function the Sendable values it needs",
        section: "Main actor by default")
}

/// A photo editor with its engine, draft store and archive writer.
@MainActor
struct EditorScene {
    let engine = PixelEngine()
    let store = DraftStore()
    let writer = ArchiveWriter()
    let model: EditorModel

    init(photo: RawPhoto = RawPhoto(id: "harbour")) {
        model = EditorModel(photo: photo, engine: engine, store: store, writer: writer)
    }

    /// Runs the auto-enhance to its end, or records `Bugs.enhanceIncomplete` if it never ends.
    func autoEnhance() async -> Bool {
        let model = model
        return await awaitResult(
            of: { await model.autoEnhance() }, within: heavyWorkLimit(probes: model.photo.tileCount),
            orRecord: Bugs.enhanceIncomplete) != nil
    }
}

/// How long to wait for work that asks the main-actor probe `probes` times: the hang limit, plus
/// each probe's own limit, which a probe pays only if the main actor is blocked. So blocked work
/// is reported as blocked, not as a hang. A passing test never waits for it.
func heavyWorkLimit(probes: Int) -> Duration {
    hangLimit + MainActorProbe.limit * probes
}

/// Where the main-actor findings of some work say it ran, as issues for `what`.
func recordMainActorFindings(_ findings: [MainActorProbe.Finding], of what: String, onActor lesson: Lesson) {
    let onMainActor = findings.filter { $0 == .ranOnMainActor }.count
    if onMainActor > 0 {
        lesson.record("\(onMainActor) of the \(findings.count) \(what) ran on the main actor.")
    }
    let blocked = findings.filter { $0 == .mainActorBlocked }.count
    if blocked > 0 {
        Bugs.mainActorBlocked.record(
            "\(blocked) of the \(findings.count) \(what) ran elsewhere while the main actor could not run anything for \(MainActorProbe.limit)."
        )
    }
}

@Suite("Chapter 16: auto-enhance leaves the main actor")
@MainActor
struct AutoEnhanceTests {
    @Test("Auto-enhance enhances every tile, in order, and shows the result")
    func enhancesEveryTile() async {
        let scene = EditorScene()
        guard await scene.autoEnhance() else { return }
        let indices = scene.model.enhanced?.tiles.map(\.index)
        #expect(
            indices == [0, 1, 2, 3], "\(Bugs.enhanceIncomplete.message)\nenhanced tiles: \(String(describing: indices))"
        )
        #expect(scene.model.status == .enhanced, Bugs.enhanceIncomplete.comment)
        #expect(scene.engine.runs.count == 4, "tiles the engine enhanced: \(scene.engine.runs.map(\.index))")
    }

    @Test("No tile is enhanced on the main actor, and the main actor stays free", .exposesBug(Bugs.tilesOnMainActor))
    func tilesLeaveTheMainActor() async {
        let scene = EditorScene()
        guard await scene.autoEnhance() else { return }
        recordMainActorFindings(scene.engine.runs.map(\.mainActor), of: "tiles", onActor: Bugs.tilesOnMainActor)
    }

    @Test("While the tiles are being enhanced, the status says enhancing")
    func statusWhileEnhancing() async {
        let scene = EditorScene()
        let model = scene.model
        // As tile 1 starts, the engine waits (off the main actor) until the test has read the
        // status, for as long as the main actor may take to run a job before it counts as
        // blocked (another test's lesson). If the engine stopped waiting first (a busy machine,
        // under Thread Sanitizer say), the status read proves nothing and is not judged. Tiles
        // on the main actor are another test's lesson too: then nothing waits here.
        let reachedTile1 = ObservedCount()
        let tilesOnMainActor = Locked(false)
        let stoppedWaiting = Locked(false)
        let lookedAtStatus = DispatchSemaphore(value: 0)
        scene.engine.whenTileStarts(1) {
            let onMainActor = MainQueue.isCurrent
            tilesOnMainActor.withLock { $0 = onMainActor }
            reachedTile1.increment()
            let bound = DispatchTime.now() + .seconds(Int(MainActorProbe.limit.components.seconds))
            if !onMainActor, lookedAtStatus.wait(timeout: bound) == .timedOut {
                stoppedWaiting.withLock { $0 = true }
            }
        }
        let enhance = Task { await model.autoEnhance() }
        let reached = await awaitResult(
            of: { await reachedTile1.reach(1) }, within: heavyWorkLimit(probes: 4), orRecord: Bugs.enhanceIncomplete)
        let status = model.status
        lookedAtStatus.signal()
        guard reached != nil else { return }
        await awaitResult(
            of: { await enhance.value }, within: heavyWorkLimit(probes: 4), orRecord: Bugs.enhanceIncomplete)
        if !tilesOnMainActor.withLock({ $0 }) && !stoppedWaiting.withLock({ $0 }) && status != .enhancing {
            Bugs.statusEarly.record("While tile 1 was being enhanced, the status was \(status), not enhancing.")
        }
    }

    @Test("Cancelling the task that calls autoEnhance() stops the work at the next tile")
    func cancelStopsTheWork() async {
        let scene = EditorScene()
        let model = scene.model
        let caller = Locked<Task<Void, Never>?>(nil)
        // As tile 1 starts, the user leaves the screen: the task that called autoEnhance() is cancelled.
        scene.engine.whenTileStarts(1) { caller.withLock { $0 }?.cancel() }
        let go = Gate(closed: true)
        let task = Task {
            try? await go.pass()
            await model.autoEnhance()
        }
        caller.withLock { $0 = task }
        go.open()
        guard
            await awaitResult(
                of: { await task.value }, within: heavyWorkLimit(probes: 4), orRecord: Bugs.enhanceIncomplete) != nil
        else { return }
        let tiles = scene.engine.runs.map(\.index)
        if tiles.count > 2 || model.status != .cancelled {
            Bugs.cancelIgnored.record(
                "The caller was cancelled as tile 1 started, yet the engine enhanced tiles \(tiles) and the status is \(model.status)."
            )
        }
        #expect(
            model.enhanced == nil, "\(Bugs.cancelIgnored.message)\nA cancelled auto-enhance leaves the photo as it was."
        )
    }
}
