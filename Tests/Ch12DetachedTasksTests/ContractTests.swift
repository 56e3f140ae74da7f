import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch12DetachedTasksSolution
#else
    import Ch12DetachedTasks
#endif

// Chapter 12's contract ("Your task"), explored on its own: the one background task cancelled
// before it runs, while its jobs run, after some of them ended and after all of them; each job
// failing, after any set of the others ended; every sequence of short loads of the gallery
// against a model; and the viewer closed before, during and after its save, alone or with a
// second viewer. Each failure names the lesson and adds a reproducer: the steps of its run.

private let photo = Thumbnail.expected(for: "harbour")
private let kinds = BackgroundJobs.Kind.allCases

/// Every set of `kinds` (in the order of `kinds`), from the empty set to all of them.
private func subsets(of kinds: [BackgroundJobs.Kind]) -> [[BackgroundJobs.Kind]] {
    kinds.reduce([[]]) { sets, kind in sets + sets.map { $0 + [kind] } }.sorted { $0.count < $1.count }
}

/// What one run of an exploration did and saw: its steps, the promises it broke, and whether
/// a bounded wait gave up (then the runs after it are skipped: each would wait out the limit).
@MainActor
private struct RunLog {
    var steps: [String] = []
    var violations: [Violation] = []
    var hung = false

    mutating func step(_ label: String) { steps.append(label) }

    mutating func broke(_ lesson: Lesson, _ observed: String) { violations.append(Violation(lesson, observed)) }

    /// Waits for `event` within the hang limit; if it never comes, notes `lesson` with what
    /// `observed` says then, and returns false.
    mutating func wait(
        for event: @escaping @Sendable () async -> Void, orBreak lesson: Lesson, _ observed: () -> String
    ) async -> Bool {
        guard case .stillSuspended = await withinHangLimit(hangLimit, event) else { return true }
        hung = true
        broke(lesson, observed())
        return false
    }

    /// Awaits `task` within the hang limit; `nil` (and `neverEnds` noted) if it was still running.
    mutating func end<Value: Sendable>(of task: Task<Value, any Error>, _ what: String) async -> Result<
        Value, any Error
    >? {
        guard case .finished(let result) = await withinHangLimit(hangLimit, { try await task.value }) else {
            hung = true
            broke(Bugs.neverEnds, "\(what) was still running \(hangLimit) later.")
            return nil
        }
        return result
    }
}

/// Runs `run` once per plan, stopping after a run that hung and broke a promise, and gathers
/// each broken promise with its run's steps as the reproducer.
@MainActor
private func explore<Plan: Sendable>(
    _ instrument: String, _ scenario: String, plans: [Plan], describe: (Plan) -> String,
    run: @MainActor (Plan) async -> RunLog
) async -> ExplorationReport {
    var findings: [ExplorationFinding] = []
    var runs = 0
    var stopped = false
    for plan in plans where !stopped {
        let log = await run(plan)
        runs += 1
        let steps = log.steps.enumerated().map { "  \($0.offset + 1). \($0.element)" }
        let reproducer = (["Reproducer: \(describe(plan)). The steps of this run:"] + steps).joined(separator: "\n")
        findings += log.violations.map { ExplorationFinding($0, reproducer: reproducer) }
        stopped = log.hung && !log.violations.isEmpty
    }
    return ExplorationReport(
        instrument: instrument, scenario: scenario, runs: runs, findings: findings, stoppedAfterHang: stopped)
}

/// Starts the jobs from the main actor, at the screen's priority, and waits until all three
/// are in flight (held after starting). `nil` if they never are (the jobs are let go then).
@MainActor
private func startJobs(in scene: GalleryScene, _ log: inout RunLog) async -> Task<Void, any Error>? {
    let work = await Task(priority: .userInitiated) { scene.gallery.startBackgroundJobs(for: photo) }.value
    log.step("startBackgroundJobs(for: \"harbour\") returns the task")
    let inFlight = scene.jobs.inFlight
    guard
        await log.wait(
            for: { await inFlight.reach(3) }, orBreak: Bugs.jobsOneAfterAnother,
            { "Only \(inFlight.value) of the 3 jobs were in flight at the same time." })
    else {
        scene.jobs.releaseAll()
        return nil
    }
    log.step("the three jobs are in flight")
    return work
}

/// Lets the jobs of `ended` finish, one at a time, each before the next.
@MainActor
private func end(_ ended: [BackgroundJobs.Kind], in scene: GalleryScene, _ log: inout RunLog) async -> Bool {
    for (index, kind) in ended.enumerated() {
        scene.jobs.release(kind)
        log.step("the \(kind) job ends")
        let finished = scene.jobs.finished
        guard
            await log.wait(
                for: { await finished.reach(index + 1) }, orBreak: Bugs.neverEnds,
                { "The \(kind) job was let through, but it did not end." })
        else { return false }
    }
    return true
}

/// After the task ended: no job is still running, and none goes on to the end once let
/// through (`finished` jobs, and no more, ran to the end).
@MainActor
private func noJobLeftRunning(in scene: GalleryScene, finished: Int, _ lesson: Lesson, _ log: inout RunLog) {
    let running = scene.jobs.inFlight.value
    if running > 0 {
        log.broke(lesson, "The task ended while \(running) of its jobs were still running.")
    }
    let starts = scene.jobs.starts.map(\.kind)
    if starts.count > kinds.count {
        log.broke(lesson, "\(starts.count) jobs started, not one of each kind: \(starts).")
    }
    scene.jobs.releaseAll()
    if scene.jobs.finished.value > finished {
        log.broke(
            lesson, "\(scene.jobs.finished.value - finished) jobs that should have been cancelled went on to the end.")
    }
}

/// Where the one background task is cancelled: before it has run (`nil`), or once the jobs
/// of the set have ended (all three: after the work is over).
private typealias CancelPlan = [BackgroundJobs.Kind]?

private func describeCancel(_ plan: CancelPlan) -> String {
    switch plan {
    case nil: "cancelled before it ran"
    case let ended? where ended.count == kinds.count: "cancelled after every job had ended"
    case let ended? where ended.isEmpty: "cancelled while all three jobs were running"
    case let ended?: "cancelled after the \(ended.map(\.rawValue).joined(separator: " and ")) job ended"
    }
}

@MainActor
private func runCancel(_ plan: CancelPlan) async -> RunLog {
    var log = RunLog()
    let scene = GalleryScene()
    let work: Task<Void, any Error>
    if let ended = plan {
        guard let started = await startJobs(in: scene, &log), await end(ended, in: scene, &log) else {
            scene.jobs.releaseAll()
            return log
        }
        work = started
        if ended.count == kinds.count {
            // The work is over: the task ends without an error, and a cancel now changes nothing.
            guard let result = await log.end(of: work, "The task, all of whose jobs had ended,") else { return log }
            log.step("the task ends; then it is cancelled")
            work.cancel()
            if case .failure(let error) = result {
                log.broke(Bugs.outcomeHidden, "Every job had ended, yet the task threw \(error).")
            }
            noJobLeftRunning(in: scene, finished: kinds.count, Bugs.jobsOutliveCancel, &log)
            return log
        }
        work.cancel()
        log.step("the task is cancelled")
        let cancelled = scene.jobs.cancelled
        let running = kinds.count - ended.count
        guard
            await log.wait(
                for: { await cancelled.reach(running) }, orBreak: Bugs.jobsOutliveCancel,
                { "After the cancel, \(cancelled.value) of the \(running) jobs still running saw it." })
        else {
            scene.jobs.releaseAll()
            _ = await log.end(of: work, "The cancelled task")
            return log
        }
    } else {
        work = await Task(priority: .userInitiated) {
            let work = scene.gallery.startBackgroundJobs(for: photo)
            work.cancel()
            return work
        }.value
        log.step("startBackgroundJobs(for: \"harbour\") returns the task, cancelled at once, before it has run")
    }
    switch await withinHangLimit(hangLimit, { try await work.value }) {
    case .stillSuspended:
        log.hung = true
        let jobs = scene.jobs
        log.broke(
            Bugs.jobsOutliveCancel,
            "The task was cancelled, yet \(jobs.inFlight.value) jobs were still running \(hangLimit) later.")
        scene.jobs.releaseAll()
        return log
    case .finished(.success):
        log.broke(Bugs.outcomeHidden, "The task was cancelled before its jobs ended, yet it ended without an error.")
    case .finished(.failure(let error)) where !(error is CancellationError):
        log.broke(Bugs.outcomeHidden, "The task was cancelled, yet it threw \(error), not CancellationError.")
    case .finished:
        log.step("the task throws CancellationError")
    }
    noJobLeftRunning(in: scene, finished: plan?.count ?? 0, Bugs.jobsOutliveCancel, &log)
    return log
}

/// Which job fails, once the jobs of the set have ended.
private struct JobFailurePlan: Sendable {
    let failing: BackgroundJobs.Kind
    let ended: [BackgroundJobs.Kind]

    var description: String {
        let ended = ended.map(\.rawValue).joined(separator: " and ")
        return self.ended.isEmpty ? "the \(failing) job fails" : "the \(failing) job fails after the \(ended) job ended"
    }
}

@MainActor
private func runFailure(_ plan: JobFailurePlan) async -> RunLog {
    var log = RunLog()
    let scene = GalleryScene()
    guard let work = await startJobs(in: scene, &log), await end(plan.ended, in: scene, &log) else {
        scene.jobs.releaseAll()
        return log
    }
    scene.jobs.fail(plan.failing)
    log.step("the \(plan.failing) job fails")
    let cancelled = scene.jobs.cancelled
    let running = kinds.count - 1 - plan.ended.count
    let failure = BackgroundJobFailure(kind: plan.failing, id: photo.id)
    if !(await log.wait(
        for: { await cancelled.reach(running) }, orBreak: Bugs.failureLeavesJobsRunning,
        { "The \(plan.failing) job failed; \(cancelled.value) of the \(running) jobs still running saw a cancel." }))
    {
        scene.jobs.releaseAll()
    }
    guard let result = await log.end(of: work, "The task whose \(plan.failing) job failed") else {
        scene.jobs.releaseAll()
        return log
    }
    switch result {
    case .success:
        log.broke(Bugs.outcomeHidden, "The \(plan.failing) job failed, yet the task ended without an error.")
    case .failure(let error) where (error as? BackgroundJobFailure) != failure:
        log.broke(
            Bugs.outcomeHidden, "The \(plan.failing) job failed with \"\(failure)\", but the task threw \(error).")
    case .failure:
        log.step("the task throws BackgroundJobFailure: \(failure)")
    }
    noJobLeftRunning(in: scene, finished: plan.ended.count, Bugs.failureLeavesJobsRunning, &log)
    return log
}

/// The jobs of one order of the interleavings, and what a watcher saw when their task ended.
private final class OrderWorld: Sendable {
    let jobs = BackgroundJobs(holding: true)
    let work = Locked<Task<Void, any Error>?>(nil)
    /// How many jobs had ended when the watcher saw the task end.
    let endedAtTheEnd = Locked<Int?>(nil)
    /// Reaches 1 once the watcher has seen the task end.
    let watched = ObservedCount()
}

/// Every order in which the three jobs can end, nothing cancelled and nothing failing: the
/// task ends without an error once every job has ended, and not before.
private func jobsInEveryOrder() async -> ExplorationReport {
    await exploreInterleavings(
        "startBackgroundJobs(for: \"harbour\"), left alone", labels: kinds.map { "the \($0) job ends" },
        world: { OrderWorld() },
        start: { world in
            let jobs = world.jobs
            let work = await Task(priority: .userInitiated) { @MainActor in
                Gallery(cache: DiskCache(), jobs: jobs).startBackgroundJobs(for: photo)
            }.value
            world.work.withLock { $0 = work }
            Task {
                _ = try? await work.value
                world.endedAtTheEnd.withLock { $0 = jobs.finished.value }
                world.watched.increment()
            }
            _ = await withinHangLimit(hangLimit) { await jobs.inFlight.reach(3) }
        },
        release: { world, index in
            let ended = world.jobs.finished.value
            world.jobs.release(kinds[index])
            let finished = world.jobs.finished
            _ = await withinHangLimit(hangLimit) { await finished.reach(ended + 1) }
        },
        check: { world, _ in
            guard let work = world.work.withLock({ $0 }) else { return [] }
            world.jobs.releaseAll()
            guard case .finished(let result) = await withinHangLimit(hangLimit, { try await work.value }) else {
                return [Violation(Bugs.neverEnds, "The task was still running after every job had ended.")]
            }
            var violations: [Violation] = []
            if case .failure(let error) = result {
                violations.append(Violation(Bugs.outcomeHidden, "Every job had ended, yet the task threw \(error)."))
            }
            let watched = world.watched
            _ = await withinHangLimit(hangLimit) { await watched.reach(1) }
            if let ended = world.endedAtTheEnd.withLock({ $0 }), ended < kinds.count {
                violations.append(
                    Violation(
                        Bugs.outcomeHidden,
                        "The task ended when \(ended) of its 3 jobs had ended, while the others were still running."))
            }
            return violations
        }
    )
}

/// One step of a sequence on the gallery: a thumbnail loads, or the test awaits every task
/// that `thumbnailLoaded(_:)` has returned so far.
private enum GalleryStep: Sendable, CustomStringConvertible, CaseIterable {
    case loadA, loadB, awaitWrites

    var description: String {
        switch self {
        case .loadA: "thumbnailLoaded(\"a\")"
        case .loadB: "thumbnailLoaded(\"b\")"
        case .awaitWrites: "await every task returned so far"
        }
    }

    var id: String? {
        switch self {
        case .loadA: "a"
        case .loadB: "b"
        case .awaitWrites: nil
        }
    }
}

/// What the gallery shows right after a step, and, after awaiting its tasks, the ids the
/// cache holds (sorted: writes of different thumbnails may land in any order).
private struct GalleryState: Sendable, Equatable, CustomStringConvertible {
    var shown: [String]
    var written: [String]?

    var description: String {
        "shows \(shown)" + (written.map { ", the cache holds \($0)" } ?? "")
    }
}

private func galleryModel(_ steps: [GalleryStep]) -> [GalleryState] {
    var shown: [String] = []
    return steps.map { step in
        if let id = step.id { shown.append(id) }
        return GalleryState(shown: shown, written: step.id == nil ? shown.sorted() : nil)
    }
}

@MainActor
private func galleryRun(_ steps: [GalleryStep]) async -> [GalleryState] {
    let scene = GalleryScene()
    var tasks: [Task<Void, Never>] = []
    var states: [GalleryState] = []
    for step in steps {
        if let id = step.id {
            tasks.append(scene.gallery.thumbnailLoaded(.expected(for: id)))
            states.append(GalleryState(shown: scene.gallery.shown.map(\.id), written: nil))
            continue
        }
        let awaited = tasks
        guard case .finished = await withinHangLimit(hangLimit, { for task in awaited { await task.value } }) else {
            // A task that never ends: the run stops here, one state short of the model.
            return states
        }
        states.append(
            GalleryState(shown: scene.gallery.shown.map(\.id), written: scene.cache.writes.map(\.id).sorted()))
    }
    return states
}

/// When the viewer is closed (its task cancelled): never, before it calls `fullSizeLoaded`,
/// while the save waits for the disk, or after the save landed; or two viewers closed while
/// both saves wait.
private enum ViewerPlan: CaseIterable {
    case neverClosed, closedBeforeTheCall, closedWhileSaving, closedAfterTheSave, twoClosedWhileSaving

    var description: String {
        switch self {
        case .neverClosed: "the viewer is left open"
        case .closedBeforeTheCall: "the viewer is closed before it calls fullSizeLoaded"
        case .closedWhileSaving: "the viewer is closed while the save waits for the disk"
        case .closedAfterTheSave: "the viewer is closed after the save landed"
        case .twoClosedWhileSaving: "two viewers are closed while both saves wait for the disk"
        }
    }
}

@MainActor
private func runViewer(_ plan: ViewerPlan) async -> RunLog {
    var log = RunLog()
    let scene = GalleryScene()
    let cache = scene.cache
    let ids = plan == .twoClosedWhileSaving ? ["lighthouse", "pier"] : ["lighthouse"]
    let holding = plan == .closedWhileSaving || plan == .twoClosedWhileSaving
    if holding { cache.holdSaves() }
    let viewers = ids.map { id in
        Task {
            if plan == .closedBeforeTheCall { withUnsafeCurrentTask { $0?.cancel() } }
            await scene.gallery.fullSizeLoaded(.expected(for: id))
        }
    }
    log.step(
        (plan == .closedBeforeTheCall ? "the viewer is closed, then it calls " : "the viewer calls ")
            + ids.map { "fullSizeLoaded(\"\($0)\")" }.joined(separator: " and "))
    let event = holding ? cache.savesStarted : cache.savesEnded
    // A save that never starts in a closed viewer was dropped by the close.
    let lesson = plan == .closedBeforeTheCall ? Bugs.viewerCloseDropsSave : Bugs.neverWrites
    guard
        await log.wait(
            for: { await event.reach(ids.count) }, orBreak: lesson,
            { "\(cache.savesStarted.value) of the \(ids.count) saves started." })
    else {
        cache.releaseSaves()
        return log
    }
    if plan != .neverClosed && plan != .closedBeforeTheCall {
        for viewer in viewers { viewer.cancel() }
        log.step(
            holding ? "the saves wait for the disk; the viewer is closed" : "the save landed; the viewer is closed")
    }
    cache.releaseSaves()
    let ended = cache.savesEnded
    guard
        await log.wait(
            for: { await ended.reach(ids.count) }, orBreak: Bugs.neverWrites,
            { "\(ended.value) of the \(ids.count) saves ended." })
    else { return log }
    if !cache.droppedSaves.isEmpty {
        log.broke(
            Bugs.viewerCloseDropsSave, "The save of \(cache.droppedSaves) saw the viewer's cancel and wrote nothing.")
    } else if cache.writes.map(\.id).sorted() != ids {
        log.broke(Bugs.neverWrites, "The cache holds \(cache.writes.map(\.id)), not \(ids).")
    }
    for viewer in viewers {
        guard case .stillSuspended = await withinHangLimit(hangLimit, { await viewer.value }) else { continue }
        log.hung = true
        log.broke(Bugs.neverEnds, "The viewer's task was still running \(hangLimit) after its save had ended.")
    }
    return log
}

@Suite("Chapter 12: the contract at every cancel point, every failure point and on sequences of loads")
@MainActor
struct DetachedTasksContractTests {
    @Test(
        "The background task, cancelled before it runs, while its jobs run or after some or all ended, keeps its contract",
        .exposesBug(Bugs.jobsOutliveCancel))
    func jobsAtEveryCancelPoint() async {
        let plans: [CancelPlan] = [nil] + subsets(of: kinds).map(Optional.some)
        await explore(
            "every cancel point", "startBackgroundJobs(for: \"harbour\")", plans: plans, describe: describeCancel,
            run: runCancel
        ).record()
    }

    @Test(
        "Whichever job fails, after any of the others ended, the rest are cancelled and the task throws its error",
        .exposesBug(Bugs.failureLeavesJobsRunning))
    func jobsAtEveryFailurePoint() async {
        let plans = kinds.flatMap { failing in
            subsets(of: kinds.filter { $0 != failing }).map { JobFailurePlan(failing: failing, ended: $0) }
        }
        await explore(
            "every failure point", "startBackgroundJobs(for: \"harbour\")", plans: plans,
            describe: \.description, run: runFailure
        ).record()
    }

    @Test("Left alone, the task ends without an error once every job has ended, whatever the order they end in")
    func jobsEndInEveryOrder() async {
        await jobsInEveryOrder().record()
    }

    @Test("Every sequence of four loads and waits shows and writes each thumbnail once, in order")
    func everyShortSequenceOfLoads() async {
        let check = ModelCheck(
            "Gallery", lesson: Bugs.loadLosesTrack, length: 4,
            generate: { random in random.pick(GalleryStep.allCases) },
            real: { steps in await galleryRun(steps) }, model: galleryModel)
        for sequence in everySequence(of: 4, from: GalleryStep.allCases) where await check.mismatch(sequence) != nil {
            // The first sequence that goes wrong, shrunk to a shortest one that still does.
            await check.replay(await check.shrink(sequence)).record()
            return
        }
    }

    @Test(
        "The viewer closed before, during or after its save, alone or with a second viewer: every save lands",
        .exposesBug(Bugs.viewerCloseDropsSave))
    func viewerAtEveryCancelPoint() async {
        await explore(
            "every cancel point", "fullSizeLoaded", plans: ViewerPlan.allCases, describe: \.description, run: runViewer
        ).record()
    }
}
