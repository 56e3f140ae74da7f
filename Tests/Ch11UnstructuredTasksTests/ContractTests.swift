import Foundation
import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch11UnstructuredTasksSolution
#else
    import Ch11UnstructuredTasks
#endif

// Chapter 11's contract, explored on its own: sequences of scrolls and answers of the
// service against a reference model of what the reading promises under "Your task". The
// list has three photos and room for two rows, so two loads run at once and a cell is
// reused. The steps reach every cancel point of a load (before it started: away and straight
// back in one turn; while its request waits; just as its answer arrived; after it ended) and
// a failure of either row's request after any history, each time followed by what comes
// next: the item scrolling in again, the other row answering, the end of all work.
//
// After each step the test waits until everything has settled (every load still running is
// waiting at the service), then looks at the rows, the images shown during the step,
// `loads` and the requests waiting. The sequences never release the delegate: its release
// is explored on its own (after no step or any one step, in the same turn or once settled).
// Both parts run in child processes (``ContractPart``): a wrong fix may trap in either.

/// One step of a sequence: the user scrolls, or the service answers.
enum ListStep: Sendable, Equatable, CustomStringConvertible {
    /// The list scrolls to its other end: the top row leaves and the third photo comes in, or back.
    case scroll
    /// To the other end and straight back, in one turn of the main actor: the row that left
    /// comes back before its first load got a turn.
    case scrollAwayAndBack
    /// The service answers the request of the row on screen (0: top, 1: bottom).
    case answer(row: Int)
    /// The service fails the request of the row on screen.
    case fail(row: Int)
    /// The service answers the row's request, and in the same turn the list scrolls to its
    /// other end, before the load gets the main actor back.
    case answerAsTheListScrolls(row: Int)
    /// The service answers every request waiting, newest first, in one turn.
    case answerEverything

    static let all: [ListStep] = [
        .scroll, .scrollAwayAndBack, .answer(row: 0), .answer(row: 1), .fail(row: 0), .fail(row: 1),
        .answerAsTheListScrolls(row: 0), .answerAsTheListScrolls(row: 1), .answerEverything,
    ]

    var description: String {
        switch self {
        case .scroll: "scroll to the other end"
        case .scrollAwayAndBack: "scroll to the other end and straight back, in one turn"
        case .answer(let row): "the service answers the \(rowName(row)) row's request"
        case .fail(let row): "the service fails the \(rowName(row)) row's request"
        case .answerAsTheListScrolls(let row):
            "the service answers the \(rowName(row)) row's request, and the list scrolls to the other end in the same turn"
        case .answerEverything: "the service answers every request waiting, newest first"
        }
    }
}

private func rowName(_ row: Int) -> String { row == 0 ? "top" : "bottom" }

/// What the list, the delegate and the service show once a step has settled.
struct ListState: Sendable, Equatable, CustomStringConvertible {
    /// Each row on screen, top to bottom, with what its cell shows.
    var rows: [String]
    /// The images cells were given during the step, sorted.
    var shown: [String]
    /// The items in `loads`, sorted.
    var loads: [String]
    /// The image requests waiting at the service, sorted.
    var waiting: [String]
    /// False: some load did not settle within the hang limit.
    var settled = true

    var description: String {
        "rows [\(rows.joined(separator: ", "))], shown now \(shown), loads \(loads), requests waiting \(waiting)"
            + (settled ? "" : ", and a load was still busy (neither ended nor waiting for the service)")
    }
}

private func row(_ item: String, image: String?) -> String {
    switch image {
    case nil: "\(item) empty"
    case item: "\(item) with its image"
    case let other?: "\(item) with the image of \(other)"
    }
}

private func display(_ thumbnail: String, in item: String?) -> String {
    "\(thumbnail) in the row of \(item ?? "no item")"
}

private let photos = ListItem.numbered(3).map(\.id)

/// The contract as a model. The list starts at its top, both loads waiting. Every item on
/// screen has one load; it is waiting until its answer (its image is shown) or its failure
/// (nothing is shown), and ends at once when its item scrolls away, answered or not.
func modelRun(_ steps: [ListStep]) -> [ListState] {
    enum Load { case waiting, shown, failed }
    var top = 0
    var loads: [String: Load] = [photos[0]: .waiting, photos[1]: .waiting]
    func visible() -> [String] { Array(photos[top...(top + 1)]) }
    func scroll() {
        top = 1 - top
        let now = visible()
        loads = loads.filter { now.contains($0.key) }
        for item in now where loads[item] == nil { loads[item] = .waiting }
    }
    return steps.map { step in
        var shown: [String] = []
        func answer(_ item: String) {
            guard loads[item] == .waiting else { return }
            loads[item] = .shown
            shown.append(display(item, in: item))
        }
        switch step {
        case .scroll:
            scroll()
        case .scrollAwayAndBack:
            scroll()
            scroll()
        case .answer(let row):
            answer(visible()[row])
        case .fail(let row):
            if loads[visible()[row]] == .waiting { loads[visible()[row]] = .failed }
        case .answerAsTheListScrolls(let row):
            // Still on screen after the scroll: the same load, and it shows its answer.
            let item = visible()[row]
            let answered = loads[item] == .waiting
            scroll()
            if answered { answer(item) }
        case .answerEverything:
            for item in visible() { answer(item) }
        }
        let running = visible().filter { loads[$0] == .waiting }
        return ListState(
            rows: visible().map { row($0, image: loads[$0] == .shown ? $0 : nil) }, shown: shown.sorted(),
            loads: running, waiting: running)
    }
}

/// Delegates whose loads had not all ended when their run stopped: kept, so that no load
/// ever reaches a delegate that is gone. The sequences are not about the release (an
/// `[unowned self]` would trap there and hide what they found); the release points are.
@MainActor private var keptAlive: [ThumbnailListDelegate] = []

/// The list of three photos with room for two rows, its delegate, and a service that holds
/// every request, driven one step at a time. Starts at the top, with both loads waiting.
@MainActor
private final class ListRun {
    let service = ThumbnailService(holdingRequests: true)
    let list = ListView(items: photos.map(ListItem.init), visibleRowCount: 2)
    private(set) var delegate: ThumbnailListDelegate?
    /// Every load seen in `loads`.
    private(set) var seen: Set<Task<Void, Never>> = []
    private var ended = 0
    private var top = 0

    init() {
        let delegate = ThumbnailListDelegate(service: service)
        self.delegate = delegate
        list.delegate = delegate
        scroll(toRow: 0)
    }

    /// The loads seen and not ended yet.
    var running: Int { seen.count - ended }

    private func scroll(toRow row: Int) {
        list.scroll(toRow: row)
        top = row
        for load in delegate.map({ Array($0.loads.values) }) ?? [] where seen.insert(load).inserted {
            Task {
                await load.value
                self.ended += 1
            }
        }
    }

    private func release(row: Int) { service.release(.image, id: list.visibleItems[row].id) }

    /// Does `step`, in one turn of the main actor.
    func perform(_ step: ListStep) {
        service.failRequests(per: .never)
        switch step {
        case .scroll:
            scroll(toRow: 1 - top)
        case .scrollAwayAndBack:
            let back = top
            scroll(toRow: 1 - top)
            scroll(toRow: back)
        case .answer(let row):
            release(row: row)
        case .fail(let row):
            service.failRequests(per: FailurePlan(failingCall: 1))
            release(row: row)
        case .answerAsTheListScrolls(let row):
            release(row: row)
            scroll(toRow: 1 - top)
        case .answerEverything:
            for request in service.heldRequests.reversed() { service.release(.image, id: request.id) }
        }
    }

    /// Waits until every load still running waits at the service, and every request in
    /// flight too. False if that didn't happen within the hang limit.
    func settle() async -> Bool {
        let settled = await withinHangLimit { @MainActor in
            while self.running != self.service.heldRequests.count || self.service.inFlight.value != self.running {
                await Task.yield()
            }
        }
        if case .finished = settled { return true }
        return false
    }

    /// What the run shows now; `shown` lists the images given to cells since `displays`.
    func state(shownSince displays: Int, settled: Bool) -> ListState {
        ListState(
            rows: list.visibleCells.map { row($0.item?.id ?? "no item", image: $0.image?.id) },
            shown: list.displays.dropFirst(displays).map { display($0.thumbnailID, in: $0.item?.id) }.sorted(),
            loads: (delegate?.loads.keys.map(\.id) ?? []).sorted(), waiting: service.heldRequests.map(\.id).sorted(),
            settled: settled)
    }

    /// Lets the list let go of its delegate: nothing else holds it.
    func releaseDelegate() { delegate = nil }

    /// Lets every load end, then lets the delegate go, unless a load can't end or `loads`
    /// isn't empty: then the delegate is kept, so that no load reaches it once it is gone.
    func finish(settled: Bool) async {
        service.releaseAll()
        guard let delegate else { return }
        let ended = settled ? await settle() : false
        if !ended || !delegate.loads.isEmpty { keptAlive.append(delegate) }
    }
}

/// The real list, step by step.
@MainActor
func realRun(_ steps: [ListStep]) async -> [ListState] {
    announce("the sequence " + steps.map { "(\($0))" }.joined(separator: ", "))
    let run = ListRun()
    var settled = await run.settle()
    var observations: [ListState] = []
    for step in steps where settled {
        let before = run.list.displays.count
        run.perform(step)
        settled = await run.settle()
        observations.append(run.state(shownSince: before, settled: settled))
    }
    await run.finish(settled: settled)
    return observations
}

/// Where the list lets go of its delegate: after `steps` (at most one), in the same turn as
/// the last of them or once everything has settled.
private struct ReleasePoint: CustomStringConvertible {
    let steps: [ListStep]
    let sameTurn: Bool

    /// Every release point: after no step or any one step, in the same turn or settled.
    static let all: [ReleasePoint] = ([[]] + ListStep.all.map { [$0] }).flatMap { steps in
        [true, false].map { ReleasePoint(steps: steps, sameTurn: $0) }
    }

    var description: String {
        let when =
            switch (steps.isEmpty, sameTurn) {
            case (true, true): "in the same turn as its first rows appeared"
            case (true, false): "while its first two loads waited for the service"
            case (false, true): "in the same turn as the last step"
            case (false, false): "once the last step had settled"
            }
        let numbered = steps.enumerated().map { "  \($0.offset + 1). \($0.element)" }
        return "the list let go of its delegate \(when)" + (steps.isEmpty ? "." : ", after:\n")
            + numbered.joined(separator: "\n")
    }
}

/// The contract when the list lets go of its delegate, at `point`: the delegate goes at
/// once, its loads end without the service answering, and nothing is shown afterwards.
@MainActor
private func releaseRun(at point: ReleasePoint) async -> [Violation] {
    announce("the release point: " + "\(point)".replacing("\n", with: " "))
    let run = ListRun()
    let busy = [Violation(Bugs.loadNeverEnds, "a load was still busy before the release")]
    for step in point.steps {
        guard await run.settle() else { return busy }
        run.perform(step)
    }
    if !point.sameTurn {
        guard await run.settle() else { return busy }
    }
    weak let released = run.delegate
    let shownBefore = run.list.displays.count
    let loads = run.seen
    run.releaseDelegate()

    var violations: [Violation] = []
    if case .stillSuspended = await withinHangLimit(hangLimit, { for load in loads { await load.value } }) {
        violations.append(
            Violation(
                Bugs.loadsOutliveDelegate,
                released != nil
                    ? "the delegate was still alive, and its loads kept waiting for the service: they hold the delegate"
                    : "the delegate was gone, but its loads kept waiting for the service: nothing cancelled them"))
    }
    run.service.releaseAll()
    if case .stillSuspended = await withinHangLimit(hangLimit, { for load in loads { await load.value } }) {
        violations.append(Violation(Bugs.loadNeverEnds, "a load never ended, even once the service had answered"))
    }
    let shown = run.list.displays.dropFirst(shownBefore).map { "\"\($0.thumbnailID)\"" }
    if !shown.isEmpty {
        violations.append(
            Violation(Bugs.loadsOutliveDelegate, "after the release, its loads showed \(shown.joined(separator: ", "))")
        )
    }
    if released != nil {
        violations.append(
            Violation(Bugs.loadsOutliveDelegate, "once every load had ended, the delegate was still alive"))
    }
    return violations
}

/// Every release point, until the first that breaks the contract.
@MainActor
private func exploreReleasePoints() async -> ExplorationReport {
    var runs = 0
    for point in ReleasePoint.all {
        runs += 1
        let violations = await releaseRun(at: point)
        if !violations.isEmpty {
            // One finding per lesson: the first thing the run saw go wrong.
            var lessons: Set<Lesson> = []
            return ExplorationReport(
                instrument: "every release point", scenario: "ThumbnailListDelegate, released by its list", runs: runs,
                findings: violations.filter { lessons.insert($0.lesson).inserted }.map {
                    ExplorationFinding($0, reproducer: "Reproducer: \(point)")
                })
        }
    }
    return ExplorationReport(
        instrument: "every release point", scenario: "ThumbnailListDelegate, released by its list", runs: runs,
        findings: [])
}

/// Marks, on standard error, the run a child process is in, so that the parent can name
/// it if the process ends there.
private func announce(_ run: String) {
    FileHandle.standardError.write(Data("\(runMarker)\(run)\n".utf8))
}

private let runMarker = "[contract run] "

/// A part of the contract suite. Each runs in a child process of its own: a plausible wrong
/// fix can trap in any of them (a force unwrap of `loads[item]` after the load has left it,
/// an `[unowned self]` reached after the release), and the trap must end only the child.
enum ContractPart: String, Codable, Sendable {
    case sequences, releasePoints

    /// In the child: runs this part's explorations and records what they found.
    @MainActor
    func run() async {
        switch self {
        case .sequences:
            let check = listCheck(length: 2)
            for sequence in everySequence(of: 2, from: ListStep.all) where await check.mismatch(sequence) != nil {
                // The first sequence that goes wrong, shrunk to a shortest one that still does.
                await check.replay(await check.shrink(sequence)).record()
                return
            }
            await listCheck().explore().record()
        case .releasePoints:
            await exploreReleasePoints().record()
        }
    }

    /// Runs this part in a child process, and explains a trap there as `crash`, naming the
    /// run it happened in.
    func runInChildProcess(crash: Lesson, sourceLocation: SourceLocation = #_sourceLocation) async {
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .success, crash.comment, sourceLocation: sourceLocation) {
                [log = log as CrashLog, part = self as ContractPart] in
                await log.runScenario { await part.run() }
            }
        }
        let last = log.contents.split(separator: "\n").last { $0.hasPrefix(runMarker) }
        log.explain(
            run, as: crash,
            detail: last.map { "  The process ended during \($0.dropFirst(runMarker.count))." },
            sourceLocation: sourceLocation)
    }
}

/// The delegate against its model, on sequences of `length` steps.
private func listCheck(length: Int = 8) -> ModelCheck<ListStep, ListState> {
    ModelCheck(
        "ThumbnailListDelegate", lesson: Bugs.sequenceBroken, length: length,
        generate: { random in random.pick(ListStep.all) },
        real: { steps in await realRun(steps) },
        model: modelRun)
}

@Suite("Chapter 11: the contract on sequences of scrolls and answers, and at every release point")
@MainActor
struct UnstructuredTasksContractTests {
    @Test(
        "Every sequence of two scrolls and answers, and sequences of eight from fixed seeds, match the contract",
        .exposesBug(Bugs.sequenceBroken))
    func sequencesMatchTheModel() async {
        await ContractPart.sequences.runInChildProcess(crash: Bugs.crashedWhileScrolling)
    }

    @Test(
        "Released after any step, or in the same turn, the delegate cancels its loads, shows nothing more and goes away",
        .exposesBug(Bugs.loadsOutliveDelegate))
    func releasedAtEveryPoint() async {
        await ContractPart.releasePoints.runInChildProcess(crash: Bugs.crashedAfterRelease)
    }
}
