import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch16ApproachableConcurrencySolution
#else
    import Ch16ApproachableConcurrency
#endif

// Chapter 16's run-time contract, as the reading states it under "Your task", explored on its
// own: autoEnhance() twice in a row with its caller cancelled before the call and as each tile
// starts, and saveDraft() with its caller cancelled before the call and at each step of the
// draft store, and with the store's save failing. After every run, the same model is asked
// once more, in a task that isn't cancelled: it must work as the first time. Which thread runs
// the tiles is AutoEnhanceTests' business, and the Swift 6 compile Swift6CompileTests'.

/// The photo of these scenarios: two tiles keep the state space small.
private let photo = RawPhoto(id: "lighthouse", tileCount: 2)

/// The edits made before a save.
private let edits = ["crop 4:3", "exposure +0.3"]

/// The photo with every tile enhanced, as autoEnhance() shows it.
private let wholePhoto = EnhancedPhoto(
    id: photo.id, tiles: (0..<photo.tileCount).map { EnhancedTile(photoID: photo.id, index: $0) })

/// One run's editor: the engine and the store, wired to the run's probe or plan, and the model,
/// made on the main actor the first time the run asks for it (the instruments build a world
/// off the main actor).
private final class EditorWorld: Sendable {
    let engine = PixelEngine()
    let store = DraftStore()
    /// Which autoEnhance() call of the run is under way, counted from 1.
    let call = Locked(0)
    private let made = Locked<EditorModel?>(nil)

    /// The editor, with the scenario's edits made.
    @MainActor var model: EditorModel {
        if let model = made.withLock({ $0 }) { return model }
        let model = EditorModel(photo: photo, engine: engine, store: store, writer: ArchiveWriter())
        for edit in edits { model.apply(edit) }
        made.withLock { $0 = model }
        return model
    }

    /// A world whose tile starts and save steps are the probe's steps.
    static func probed(_ probe: StepProbe) -> EditorWorld {
        let world = EditorWorld()
        for index in 0..<photo.tileCount {
            world.engine.whenTileStarts(index) { [call = world.call] in
                probe.step("autoEnhance() call \(call.withLock { $0 }): tile \(index) starts")
            }
        }
        world.store.onSaveStep { step in
            switch step {
            case .starts: probe.step("the store starts saving the draft")
            case .written: probe.step("the store has written the draft")
            }
        }
        return world
    }
}

/// The tiles the engine enhanced, as indices.
private func tiles(_ world: EditorWorld) -> [Int] { world.engine.runs.map(\.index) }

/// The model's status and photo, in the learner's words.
@MainActor
private func shown(_ model: EditorModel) -> String {
    let enhanced = model.enhanced.map { "the enhanced photo's tiles \($0.tiles.map(\.index))" } ?? "no enhanced photo"
    return "the status is \(model.status), with \(enhanced)"
}

/// Calls autoEnhance() once more, in a task that isn't cancelled: every tile is enhanced again,
/// and the whole photo is shown.
@MainActor
private func enhanceAgain(_ world: EditorWorld) async -> [Violation] {
    let model = world.model
    let before = world.engine.runs.count
    world.call.withLock { $0 += 1 }
    let again = await withinHangLimit(heavyWorkLimit(probes: photo.tileCount)) { await model.autoEnhance() }
    guard case .finished = again else {
        return [
            Violation(Bugs.enhanceIncomplete, "autoEnhance(), called again, was still running after the hang limit")
        ]
    }
    let newTiles = Array(tiles(world).dropFirst(before))
    guard newTiles == Array(0..<photo.tileCount), model.status == .enhanced, model.enhanced == wholePhoto else {
        return [
            Violation(
                Bugs.enhanceIncomplete,
                "autoEnhance(), called again, enhanced the tiles \(newTiles), and then \(shown(model))")
        ]
    }
    return []
}

/// What autoEnhance(), twice in a row, must keep at a cancel point.
@MainActor
private func enhanceKept(_ run: CancelPointRun<EditorModel.Status>, _ world: EditorWorld) async -> [Violation] {
    let model = world.model
    let state = "The tiles \(tiles(world)) were enhanced, and then \(shown(model))."
    if !run.stepsAfterCancel.isEmpty {
        return [
            Violation(Bugs.cancelIgnored, "After the cancel, these tiles started: \(run.stepsAfterCancel). \(state)")
        ]
    }
    // Both calls' tile steps; a cancel as the last tile of a call starts leaves no tile to
    // stop, so that call may end either way.
    let all = 2 * photo.tileCount
    let point = run.cancelAfter ?? all
    var fine: [(status: EditorModel.Status, enhanced: EnhancedPhoto?)] = []
    if run.isBaseline || point == all { fine.append((.enhanced, wholePhoto)) }
    if !run.isBaseline {
        // Cancelled before the first call's last tile: nothing is shown; after it: the first
        // call's photo stays; as it starts: either.
        if point >= photo.tileCount { fine.append((.cancelled, wholePhoto)) }
        if point <= photo.tileCount { fine.append((.cancelled, nil)) }
    }
    let status = model.status
    let enhanced = model.enhanced
    if model.photo != photo || !fine.contains(where: { $0.status == status && $0.enhanced == enhanced }) {
        let lesson = run.isBaseline ? Bugs.enhanceIncomplete : Bugs.cancelIgnored
        return [Violation(lesson, state)]
    }
    return await enhanceAgain(world)
}

/// Saves once more, in a task that isn't cancelled, after one more edit: the new draft holds
/// every edit so far.
@MainActor
private func saveAgain(_ world: EditorWorld) async -> [Violation] {
    let model = world.model
    model.apply("vignette")
    let before = world.store.drafts.count
    let again = await withinHangLimit { try await model.saveDraft() }
    let drafts = world.store.drafts.dropFirst(before).map(\.edits)
    guard case .finished(.success) = again, drafts == [model.edits] else {
        let outcome: Result<Void, any Error>? = if case .finished(let result) = again { result } else { nil }
        return [
            Violation(
                Bugs.draftWrong,
                "saveDraft(), called again: \(describeOutcome(outcome)), and the store saved the drafts \(drafts)")
        ]
    }
    return []
}

/// What saveDraft() must keep at a cancel point.
@MainActor
private func saveKept(_ run: CancelPointRun<Void>, _ world: EditorWorld) async -> [Violation] {
    guard let outcome = run.outcome else {
        return [Violation(Bugs.draftWrong, "saveDraft() was still running after the hang limit")]
    }
    let drafts = world.store.drafts.map(\.edits)
    let seen = "saveDraft(): \(describeOutcome(outcome)), and the store saved the drafts \(drafts)"
    // Whether the store had written the draft when the cancel came.
    let written = run.steps.dropLast(run.stepsAfterCancel.count).contains("the store has written the draft")
    switch outcome {
    case .success where run.isBaseline || written:
        break
    case .failure(let error) where error is CancellationError && !run.isBaseline:
        break
    case .success:
        return [Violation(Bugs.cancelledSaveSucceeds, seen)]
    default:
        return [Violation(run.isBaseline ? Bugs.draftWrong : Bugs.cancelledSaveSucceeds, seen)]
    }
    if drafts != (written ? [edits] : []) {
        return [Violation(Bugs.draftWrong, seen)]
    }
    return await saveAgain(world)
}

/// What saveDraft() must keep when the store's save fails, and when it is called again.
@MainActor
private func failureKept(_ run: FailurePointRun<Void>, _ world: EditorWorld) async -> [Violation] {
    guard let outcome = run.outcome, let recovery = run.recovery else {
        return [Violation(Bugs.draftWrong, "saveDraft() was still running after the hang limit")]
    }
    let drafts = world.store.drafts.map(\.edits)
    let seen = "saveDraft(): \(describeOutcome(outcome)); called again: \(describeOutcome(recovery))"
    if run.failingCall != nil {
        guard case .failure(let error) = outcome, error as? DraftStoreError == .diskFull(photoID: photo.id) else {
            return [Violation(Bugs.saveFailureSwallowed, seen)]
        }
    } else if case .failure = outcome {
        return [Violation(Bugs.draftWrong, seen)]
    }
    guard case .success = recovery else { return [Violation(Bugs.draftWrong, seen)] }
    // The failed save wrote nothing; each save that succeeded wrote every edit.
    let expected = Array(repeating: edits, count: run.failingCall == nil ? 2 : 1)
    if drafts != expected {
        return [Violation(Bugs.draftWrong, "\(seen); the store saved the drafts \(drafts)")]
    }
    return []
}

@Suite("Chapter 16: the contract at every cancel point and every failure point")
struct ApproachableConcurrencyContractTests {
    @Test(
        "autoEnhance(), twice in a row, cancelled before the call or as any tile starts: no tile after the cancel, the photo as it was, and the next call works"
    )
    func autoEnhanceAtEveryCancelPoint() async {
        let report = await exploreCancelPoints(
            "autoEnhance(); autoEnhance(), in one task, of a photo of \(photo.tileCount) tiles",
            world: EditorWorld.probed,
            operation: { @MainActor world in
                let model = world.model
                for _ in 1...2 {
                    world.call.withLock { $0 += 1 }
                    await model.autoEnhance()
                }
                return model.status
            }
        ) { run, world in
            // A run still going may hold the main actor: report it without waiting for it.
            guard run.outcome != nil else {
                return [Violation(Bugs.enhanceIncomplete, "autoEnhance() was still running after the hang limit")]
            }
            return await enhanceKept(run, world)
        }
        report.record()
    }

    @Test(
        "saveDraft(), cancelled before the call or at any step of the store: the store's CancellationError, nothing saved, and the next save works"
    )
    func saveDraftAtEveryCancelPoint() async {
        let report = await exploreCancelPoints(
            "saveDraft() of the edits \(edits)", world: EditorWorld.probed,
            operation: { @MainActor world in try await world.model.saveDraft() }
        ) { run, world in await saveKept(run, world) }
        report.record()
    }

    @Test("saveDraft(), when the store's save fails: its error, nothing saved, and the next save works")
    func saveDraftAtEveryFailurePoint() async {
        let report = await exploreFailurePoints(
            "saveDraft() of the edits \(edits)",
            world: { plan in
                let world = EditorWorld()
                world.store.failSaves(per: plan)
                return world
            },
            operation: { @MainActor world in try await world.model.saveDraft() }
        ) { run, world in await failureKept(run, world) }
        report.record()
    }
}
