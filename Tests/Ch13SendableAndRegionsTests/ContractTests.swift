import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch13SendableAndRegionsSolution
#else
    import Ch13SendableAndRegions
#endif

// Chapter 13's run-time contract ("Your task"), explored on its own: two exports that overlap,
// with the slider moved right after each tap and before each render returns, in every order in
// which the held renders can return; and the picks and uploads on every short sequence and on
// sequences from fixed seeds, against a model. Nothing in this chapter fails or is cancelled
// (the studio finishes everything it starts, and the screen has no Cancel button), so there are
// no cancel or failure points to explore. The screen stays on the main actor, held by a
// main-actor box: the tests still compile if a mutant drops the screen's `@MainActor`.

// MARK: Two exports, every order of their renders

/// The first export: its photos, and the slider when it is tapped.
private let firstPhotos = ["p1", "p2"]
private let firstQuality = 0.9
private let firstWatermark = "Ana"
/// The second export, tapped after the slider moved, while the first is still rendering.
private let secondPhotos = ["q1"]
private let secondQuality = 0.6
private let secondWatermark = "Bo"
/// Every photo of both exports, in the order the labels name them.
private let allPhotos = firstPhotos + secondPhotos

/// Moves the slider and the watermark field of `screen`, as the user does, property by property.
@MainActor
private func moveSlider(of screen: ExportScreen, to quality: Double, watermark: String) {
    screen.settings.quality = quality
    screen.settings.watermark = watermark
}

/// One run of the two exports: the studio, the screen, the tasks the taps returned, what the test
/// has released so far, and the first promise broken on the way.
@MainActor
private final class TwoExports {
    let studio = ExportStudio(holdRenders: true)
    var screen: ExportScreen?
    var exports: [Task<[ExportStudio.RenderedPhoto], Never>] = []
    var released: [String] = []
    var violation: Violation?
    /// Set once a bounded wait has given up, so that its polling loop stops too.
    var gaveUp = false

    nonisolated init() {}

    /// Notes a broken promise, and lets every render through so that nothing waits on it.
    func fail(_ violation: Violation) {
        if self.violation == nil { self.violation = violation }
        studio.releaseRenders()
    }

    /// What the progress holds now.
    var finished: [String] { screen?.progress.finished ?? [] }

    /// Taps Export with the first photos, moves the slider, taps Export with the second, moves
    /// the slider again, and waits for every render to start: both exports render at once.
    func start() async {
        let screen = ExportScreen(
            studio: studio, settings: ExportSettings(quality: firstQuality, watermark: firstWatermark))
        self.screen = screen
        exports.append(screen.exportTapped(firstPhotos))
        moveSlider(of: screen, to: secondQuality, watermark: secondWatermark)
        exports.append(screen.exportTapped(secondPhotos))
        moveSlider(of: screen, to: 0.2, watermark: "moved")
        let started = studio.rendersStarted
        guard case .finished = await withinHangLimit(hangLimit, { await started.reach(allPhotos.count) }) else {
            return fail(
                Violation(
                    Bugs.exportNeverRenders,
                    "with both exports tapped, \(started.value) of the \(allPhotos.count) renders started; every photo should be rendering at once"
                ))
        }
        if !finished.isEmpty {
            fail(
                Violation(
                    Bugs.progressMiscounted,
                    "before any render returned, the progress already held \(finished)"))
        }
    }

    /// Moves the slider once more, lets the render of `id` return, and waits until the progress
    /// holds it: then it must hold exactly the photos whose renders returned, in that order.
    func release(_ id: String) async {
        guard violation == nil, let screen else { return }
        released.append(id)
        moveSlider(of: screen, to: 0.1 * Double(released.count), watermark: "moved \(released.count)")
        studio.releaseRender(of: id)
        let due = released.count
        let counted = await withinHangLimit { @MainActor [self] in
            while !gaveUp, finished.count < due { await Task.yield() }
        }
        if case .stillSuspended = counted { gaveUp = true }
        if finished != released {
            fail(
                Violation(
                    Bugs.progressMiscounted,
                    "once the renders of \(released) had returned, in that order, the progress held \(finished)"))
        }
    }

    /// Waits for both exports to end, and checks what each returned and what the progress holds.
    func check() async -> [Violation] {
        var results: [[ExportStudio.RenderedPhoto]] = []
        for export in exports {
            guard case .finished(.success(let photos)) = await withinHangLimit(hangLimit, { await export.value }) else {
                fail(Violation(Bugs.workNeverEnds, "an export was still running after every render had returned"))
                break
            }
            results.append(photos)
        }
        if let violation { return [violation] }
        var violations: [Violation] = []
        let expected: [[ExportStudio.RenderedPhoto]] = [
            firstPhotos.map { .init(id: $0, quality: firstQuality, watermark: firstWatermark) },
            secondPhotos.map { .init(id: $0, quality: secondQuality, watermark: secondWatermark) },
        ]
        for (index, (photos, want)) in zip(results, expected).enumerated() where photos != want {
            let tapped =
                index == 0
                ? "The first export was tapped at quality \(firstQuality) with watermark \"\(firstWatermark)\""
                : "The second export was tapped at quality \(secondQuality) with watermark \"\(secondWatermark)\""
            let exported = photos.map(\.description).joined(separator: ", ")
            let settings = Self.settingsAreShared ? Bugs.settingsShared : Bugs.settingsReadLate
            violations.append(
                Violation(
                    photos.map(\.id) == want.map(\.id) ? settings : Bugs.exportWrongPhotos,
                    "\(tapped); the slider moved right after the tap and before each render returned. Exported: \(exported)."
                ))
        }
        if finished != released {
            violations.append(
                Violation(
                    Bugs.progressMiscounted,
                    "the renders returned in the order \(released); the progress held \(finished)"))
        }
        return violations
    }

    /// Whether `ExportSettings` is a class: then the exports and the screen share one object.
    static var settingsAreShared: Bool { isClass(ExportSettings.self) }
}

/// Whether `type` is a class (asked generically, so the answer is not known when this compiles).
private func isClass<T>(_ type: T.Type) -> Bool { type is AnyClass }

/// In a child process: the two exports, in every order in which their three renders return.
func exportOrders() async {
    await exploreInterleavings(
        "two exports: \(firstPhotos) tapped, the slider moved, \(secondPhotos) tapped",
        labels: allPhotos.map { "the render of \"\($0)\" returns" },
        world: { TwoExports() },
        start: { @MainActor run in await run.start() },
        release: { @MainActor run, index in await run.release(allPhotos[index]) },
        check: { @MainActor run, _ in await run.check() }
    ).record()
}

// MARK: Picks and uploads against a model

/// One thing the user does on the screen, or the studio lets through.
enum UploadOp: String, Sendable, CaseIterable, CustomStringConvertible {
    case pick, upload, finish

    var description: String {
        switch self {
        case .pick: "pick(next photo)"
        case .upload: "uploadTapped() (when anything is picked)"
        case .finish: "the studio lets every upload asked for so far through, and they end"
        }
    }
}

/// What the screen and the studio show after a step: the photos picked for the next upload, and
/// the batches uploaded so far (sorted: uploads let through together may end in any order).
struct UploadView: Sendable, Equatable, CustomStringConvertible {
    var picked: [String] = []
    var uploaded: [[String]] = []
    var problem: String?

    var description: String {
        "picked \(picked), uploaded \(uploaded)" + (problem.map { ", but \($0)" } ?? "")
    }
}

/// The contract as a model: each upload sends exactly the photos picked since the last tap, and
/// the screen starts a new list at the tap. Upload with nothing picked is left open, so the
/// sequences tap it only when something is picked.
func uploadModel(_ steps: [UploadOp]) -> [UploadView] {
    var view = UploadView()
    var picks = 0
    var held: [[String]] = []
    return steps.map { step in
        switch step {
        case .pick:
            picks += 1
            view.picked.append("u\(picks)")
        case .upload where !view.picked.isEmpty:
            held.append(view.picked)
            view.picked = []
        case .upload:
            break
        case .finish:
            view.uploaded = (view.uploaded + held).sorted { $0.lexicographicallyPrecedes($1) }
            held = []
        }
        return view
    }
}

/// Holds the screen on the main actor, for a bounded wait to look at.
@MainActor
private final class UploadRun {
    let studio = ExportStudio(holdUploads: true)
    let screen: ExportScreen

    init() { screen = ExportScreen(studio: studio) }
}

/// The real screen, step by step. An upload is tapped and not waited for: a pick right after it
/// happens before the upload's task runs. `finish` lets the sessions asked for so far open, and
/// waits (bounded) for every upload tapped to end.
@MainActor
func uploadRun(_ steps: [UploadOp]) async -> [UploadView] {
    let run = UploadRun()
    var picks = 0
    var pending = 0
    var taps = 0
    var views: [UploadView] = []
    for step in steps {
        var problem: String?
        switch step {
        case .pick:
            picks += 1
            pending += 1
            run.screen.pick("u\(picks)")
        case .upload where pending > 0:
            pending = 0
            taps += 1
            _ = run.screen.uploadTapped()
        case .upload:
            break
        case .finish:
            let (studio, due) = (run.studio, taps)
            let ended = await withinHangLimit {
                await studio.sessionsRequested.reach(due)
                for number in 0..<due { studio.releaseUpload(number + 1) }
                await studio.uploadsFinished.reach(due)
            }
            if case .stillSuspended = ended {
                problem =
                    "\(studio.uploadsFinished.value) of the \(due) uploads tapped ended (\(studio.sessionsRequested.value) asked for a session)"
            }
        }
        let uploaded = run.studio.uploadedBatches.sorted { $0.lexicographicallyPrecedes($1) }
        views.append(UploadView(picked: run.screen.pickedPhotos, uploaded: uploaded, problem: problem))
        if problem != nil { break }
    }
    run.studio.releaseUploads()
    return views
}

/// The screen against its model, on sequences of `length` steps.
private func uploadCheck(length: Int) -> ModelCheck<UploadOp, UploadView> {
    ModelCheck(
        "ExportScreen's picks and uploads", lesson: Bugs.batchUsedAfterSending, length: length,
        generate: { random in random.pick(UploadOp.allCases) },
        real: { steps in await uploadRun(steps) },
        model: uploadModel)
}

@Suite("Chapter 13: two exports in every order, and picks and uploads against a model")
struct SendableAndRegionsContractTests {
    @Test(
        "Two overlapping exports, whatever order their renders return in, keep the settings of their tap and count each photo once, in order",
        .exposesBug(Bugs.settingsShared))
    func everyRenderOrder() async {
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .success, Bugs.progressUnprotected.comment) {
                [log = log as CrashLog] in
                await log.runScenario { await exportOrders() }
            }
        }
        log.explain(run, as: Bugs.progressUnprotected)
    }

    @Test(
        "Every short sequence of picks, uploads and finished uploads sends each upload exactly the photos picked before its tap",
        .exposesBug(Bugs.batchUsedAfterSending))
    func everyPickAndUploadSequence() async {
        let short = uploadCheck(length: 4)
        for length in 1...4 {
            for sequence in everySequence(of: length, from: UploadOp.allCases)
            where await short.mismatch(sequence) != nil {
                await short.replay(sequence).record()
                return
            }
        }
        await uploadCheck(length: 8).explore().record()
    }
}
