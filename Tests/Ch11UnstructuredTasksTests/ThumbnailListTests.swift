import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch11UnstructuredTasksSolution
#else
    import Ch11UnstructuredTasks
#endif

private let reading = ChapterReading("11-UnstructuredTasks")

/// What can go wrong in this chapter, in the learner's words.
enum Bugs {
    static let staleImage = reading.lesson(
        "a reused cell shows a stale image",
        "a load kept running after its item scrolled away, and its thumbnail landed in a cell that now shows another item",
        section: "Cancel when the item scrolls away")
    static let cancelledLoadShows = reading.lesson(
        "a cancelled load still shows its thumbnail",
        "the service answered just as the row scrolled away; the load was cancelled before it got the main actor back, but showed the image anyway. Check Task.isCancelled after the await, on the main actor, right before touching the cell",
        section: "Cancel when the item scrolls away")
    static let loadsPileUp = reading.lesson(
        "finished loads stay in the dictionary",
        "every task handle stays in `loads` after its work is done, so the dictionary grows with every row ever shown",
        section: "Clean up after every task")
    static let loadLosesPriority = reading.lesson(
        "a visible row's thumbnail loads below the screen's priority",
        "Task.detached inherits no priority (nor the main actor): the user scrolls at .userInitiated, and the load of the row they look at ran at a lower one. Task { } started in willDisplay inherits both",
        section: "Stay on the main actor")
    static let neverLoads = reading.lesson(
        "a visible item's thumbnail is never requested",
        "willDisplay(item:in:) must start a task that asks the service for the item's image",
        section: "One task per visible item")
    static let neverShown = reading.lesson(
        "a loaded thumbnail is never shown",
        "the service answered, but the cell of an item still on screen never got its image",
        section: "One task per visible item")
    static let loadOutlivesItsRow = reading.lesson(
        "a load keeps running after its row scrolled away",
        "didEndDisplay(item:in:) should cancel the item's task, but the first load of \"photo-0\" was still waiting for the service",
        section: "Cancel when the item scrolls away")
    static let loadNeverEnds = reading.lesson(
        "a load never ends",
        "a task the delegate started was still running long after the service had answered everything",
        section: "Clean up after every task")
    static let loadsOutliveDelegate = reading.lesson(
        "the loads outlive the delegate that started them",
        "when the list lets go of its delegate, the delegate's deinit must cancel the loads it started, and for deinit to run at all, the tasks must not hold the delegate (capture `[weak self]`, not `self`)",
        section: "When the delegate goes away")
    static let sequenceBroken = reading.lesson(
        "a sequence of scrolls leaves the list in the wrong state",
        "after some sequence of scrolls and answers, the rows, the images shown, `loads` or the requests waiting differed from the contract under \"Your task\": the reproducer lists the steps, and what was expected and seen after each",
        section: "Your task")
    static let crashedWhileScrolling = reading.lesson(
        "the process crashed during a sequence of scrolls and answers",
        "the delegate trapped while the list scrolled and the service answered: a force unwrap of `loads[item]`, say, finds nil once the item's load has ended and left `loads`, and an item may scroll away after that",
        section: "Your task")
    static let crashedAfterRelease = reading.lesson(
        "the process crashed after the list released its delegate",
        "a load reached its delegate after the delegate was gone: `unowned self` traps there, where `[weak self]` gives nil",
        section: "When the delegate goes away")
}

private let photo0 = ListItem(id: "photo-0")

/// A list of photos, its delegate, and a thumbnail service that holds every request until
/// the test releases it.
@MainActor
private struct ScrollingList {
    let service = ThumbnailService(holdingRequests: true)
    let list: ListView
    let delegate: ThumbnailListDelegate

    init(items: Int, visibleRows: Int) {
        list = ListView(items: ListItem.numbered(items), visibleRowCount: visibleRows)
        delegate = ThumbnailListDelegate(service: service)
        list.delegate = delegate
    }

    /// Shows the top of the list, then scrolls to the bottom one row at a time. Between two
    /// steps it waits only until the new row's image request has reached the service, where
    /// it is held: every item scrolls away long before its thumbnail could arrive.
    /// Returns false (with a lesson recorded) if a row's request never came.
    func scrollFastToTheBottom() async -> Bool {
        let lastTop = list.items.count - list.visibleRowCount
        for top in 0...lastTop {
            list.scroll(toRow: top)
            guard await requestsStarted(list.visibleRowCount + top, of: service) else { return false }
        }
        return true
    }

    /// Lets the service answer: first the items on screen, then every item that scrolled
    /// away, newest first, so that a load that should have been cancelled lands after the
    /// right image. Returns once every thumbnail the service delivered has been shown, or
    /// records `Bugs.neverShown`.
    func releaseWorstOrderFirst() async {
        let visible = list.visibleItems
        for item in visible { service.admit(.image, id: item.id) }
        let displays = list.displayCount
        await awaitResult(of: { await displays.reach(visible.count) }, orRecord: Bugs.neverShown)
        for item in list.items.reversed() where !visible.contains(item) {
            service.admit(.image, id: item.id)
        }
        await settle()
    }

    /// Lets every request through, in the order they came.
    func releaseAll() async {
        for item in list.items { service.admit(.image, id: item.id) }
        await settle()
    }

    /// Stops holding requests, waits until none is in flight, then until every thumbnail
    /// the service delivered has been shown.
    private func settle() async {
        service.releaseAll()
        let service = service
        guard await awaitResult(of: { await service.inFlight.fall(to: 0) }, orRecord: Bugs.loadNeverEnds) != nil
        else { return }
        let delivered = service.finished.value
        let displays = list.displayCount
        await awaitResult(of: { await displays.reach(delivered) }, orRecord: Bugs.neverShown)
    }

    /// Waits for every task in `loads`, the ones still there and `earlier` ones.
    func awaitLoads(_ earlier: [Task<Void, Never>] = []) async {
        let loads = earlier + delegate.loads.values
        await awaitResult(of: { for load in loads { await load.value } }, orRecord: Bugs.loadNeverEnds)
    }
}

/// Waits until `count` image requests have reached `service`, or records `Bugs.neverLoads`.
private func requestsStarted(_ count: Int, of service: ThumbnailService) async -> Bool {
    let started = service.started
    return await awaitResult(of: { await started.reach(count) }, orRecord: Bugs.neverLoads) != nil
}

/// Waits until the image request for `id`, which has started, is held at the service's
/// gate. Returns false if it ended instead (it saw a cancel), or never got there.
@MainActor
private func heldAtTheGate(_ id: String, by service: ThumbnailService) async -> Bool {
    let request = ThumbnailService.Request(kind: .image, id: id)
    let held = await awaitResult(
        of: { @MainActor in
            // The request is on its way from `started` to the gate on another thread: look
            // again after every turn, for as long as it is in flight.
            while !service.heldRequests.contains(request) {
                guard service.inFlight.value > 0 else { return false }
                await Task.yield()
            }
            return true
        }, orRecord: Bugs.neverLoads)
    return held?.value == true
}

@Suite("Chapter 11: unstructured tasks tied to the rows of a list")
@MainActor
struct ThumbnailListTests {
    @Test(
        "Scrolling fast across 100 items leaves no stale image in any cell",
        .exposesBug(Bugs.staleImage))
    func noStaleImages() async {
        let scrolling = ScrollingList(items: 100, visibleRows: 5)
        guard await scrolling.scrollFastToTheBottom() else { return }
        await scrolling.releaseWorstOrderFirst()

        let stale = scrolling.list.displays.filter(\.isStale)
        if !stale.isEmpty {
            Bugs.staleImage.record(
                "\(stale.count) thumbnails landed in a cell that showed another item, for example: "
                    + describe(stale.prefix(3)))
        }
        let wrong = scrolling.list.visibleCells.filter { $0.image?.id != $0.item?.id }
        if !wrong.isEmpty {
            Bugs.staleImage.record(
                "When everything had arrived: " + wrong.map(describeCell).joined(separator: "; "))
        }
    }

    @Test(
        "A row that scrolls away, back and away again leaves no late image behind",
        .exposesBug(Bugs.staleImage, Bugs.loadOutlivesItsRow))
    func scrollingBackAndForth() async {
        let scrolling = ScrollingList(items: 2, visibleRows: 1)
        var loads: [Task<Void, Never>] = []
        func scroll(toRow row: Int) {
            scrolling.list.scroll(toRow: row)
            loads += scrolling.delegate.loads.values
        }

        scroll(toRow: 0)
        guard await requestsStarted(1, of: scrolling.service), let firstLoad = scrolling.delegate.loads[photo0]
        else { return }
        // photo-0 scrolls away and straight back, before its first load has ended: it gets
        // a second load, while the first one is (or should be) cancelled.
        scroll(toRow: 1)
        scroll(toRow: 0)
        await awaitResult(of: { await firstLoad.value }, orRecord: Bugs.loadOutlivesItsRow)
        // Away again: the second load must be cancelled too, or its image lands in the
        // cell, which now shows photo-1.
        scroll(toRow: 1)
        await scrolling.releaseAll()
        await scrolling.awaitLoads(loads)

        let stale = scrolling.list.displays.filter(\.isStale)
        if !stale.isEmpty {
            Bugs.staleImage.record(
                "After scrolling away, back and away again: " + describe(stale)
                    + ". Each load of \"photo-0\" must be cancelled when photo-0 scrolls away, the second one too:"
                    + " check that nothing took it out of `loads` before that, such as the first load's cleanup.")
        }
    }

    @Test(
        "A thumbnail that arrives just as its row scrolls away is not shown",
        .exposesBug(Bugs.staleImage))
    func answerArrivesAsTheRowScrollsAway() async {
        let scrolling = ScrollingList(items: 2, visibleRows: 1)
        scrolling.list.scroll(toRow: 0)
        guard await requestsStarted(1, of: scrolling.service), let load = scrolling.delegate.loads[photo0],
            await heldAtTheGate("photo-0", by: scrolling.service)
        else { return }
        // In one turn of the main actor: the service answers photo-0, and photo-0 scrolls
        // away before its load can get the main actor back.
        scrolling.service.release(.image, id: "photo-0")
        scrolling.list.scroll(toRow: 1)
        scrolling.service.releaseAll()
        await scrolling.awaitLoads([load])

        for display in scrolling.list.displays where display.isStale {
            let what =
                "\"\(display.thumbnailID)\" was shown in cell \(display.cell), which showed \(display.item?.id ?? "nothing") by then"
            if display.byCancelledTask {
                Bugs.cancelledLoadShows.record(what + ", by a load that had been cancelled.")
            } else {
                Bugs.staleImage.record(what + ": nothing cancelled its load when photo-0 scrolled away.")
            }
        }
    }

    @Test(
        "When all work has settled, the dictionary of loads is empty",
        .exposesBug(Bugs.loadsPileUp))
    func loadsAreRemovedWhenDone() async {
        let scrolling = ScrollingList(items: 100, visibleRows: 5)
        guard await scrolling.scrollFastToTheBottom() else { return }
        await scrolling.releaseAll()
        await scrolling.awaitLoads()

        let left = scrolling.delegate.loads.count
        if left > 0 {
            Bugs.loadsPileUp.record("After 100 rows and no work left, \(left) task handles are still in `loads`.")
        }
    }

    @Test(
        "A visible row's thumbnail loads at the priority of the scrolling",
        .exposesBug(Bugs.loadLosesPriority))
    func loadsAtTheScrollingPriority() async {
        let scrolling = ScrollingList(items: 3, visibleRows: 3)
        scrolling.service.releaseAll()
        // The user scrolls: the screen's work runs at user-initiated priority.
        let list = scrolling.list
        await Task(priority: .userInitiated) { @MainActor in list.scroll(toRow: 0) }.value
        let shown = list.displayCount
        await awaitResult(of: { await shown.reach(3) }, orRecord: Bugs.neverShown)

        for display in list.displays where display.priority < .userInitiated {
            Bugs.loadLosesPriority.record(
                "The load of \"\(display.thumbnailID)\" ran at \(describe(display.priority)); the scrolling that started it ran at .userInitiated."
            )
        }
        #expect(list.visibleCells.allSatisfy { $0.image?.id == $0.item?.id }, Bugs.neverShown.comment)
    }

    @Test(
        "A delegate released in the same turn as the scroll cancels its loads and goes away",
        .exposesBug(Bugs.loadsOutliveDelegate))
    func delegateReleasedBeforeTheLoadsStart() async {
        await ReleaseScenario.releasedAsTheRowsAppear.runInChildProcess()
    }

    @Test(
        "A delegate released while its thumbnails load cancels them and goes away",
        .exposesBug(Bugs.loadsOutliveDelegate))
    func delegateReleasedMidLoad() async {
        await ReleaseScenario.releasedWhileLoading.runInChildProcess()
    }
}

/// The list lets go of its delegate while the delegate's loads are in progress. Each
/// scenario runs in a child process (an exit test): a load that reaches a deallocated
/// delegate through `unowned self` traps, and the trap must end only that scenario.
enum ReleaseScenario: String, Codable, Sendable {
    /// Released right after the first rows appear, before any load got its first turn.
    case releasedAsTheRowsAppear
    /// Released while five requests are held at the service, after one row scrolled away.
    case releasedWhileLoading

    func runInChildProcess(sourceLocation: SourceLocation = #_sourceLocation) async {
        let log = CrashLog()
        let run = await offThePool {
            await #expect(
                processExitsWith: .success, Bugs.crashedAfterRelease.comment, sourceLocation: sourceLocation
            ) { [log = log as CrashLog, scenario = self as ReleaseScenario] in
                await log.runScenario {
                    await scenario.run()
                }
            }
        }
        log.explain(run, as: Bugs.crashedAfterRelease, sourceLocation: sourceLocation)
    }

    @MainActor
    func run() async {
        let service = ThumbnailService(holdingRequests: true)
        let list = ListView(items: ListItem.numbered(10), visibleRowCount: 5)
        var delegate: ThumbnailListDelegate? = ThumbnailListDelegate(service: service)
        weak let released = delegate
        list.delegate = delegate
        list.scroll(toRow: 0)
        if self == .releasedWhileLoading {
            guard await requestsStarted(5, of: service) else { return }
            list.scroll(toRow: 1)
            guard await requestsStarted(6, of: service) else { return }
        }
        let loads = delegate.map { Array($0.loads.values) } ?? []
        let shownBefore = list.displays.count
        let when =
            self == .releasedWhileLoading ? "while its loads waited for the service" : "as the first rows appeared"

        delegate = nil  // The list (and everyone else) lets go of the delegate.

        if case .stillSuspended = await withinHangLimit(hangLimit, { for load in loads { await load.value } }) {
            if released != nil {
                Bugs.loadsOutliveDelegate.record(
                    "The list released its delegate \(when), and the delegate is still alive: its loads hold it."
                        + " A task keeps everything its closure captures, `self` included, until it ends, so the delegate's deinit can't run before then."
                )
            } else {
                Bugs.loadsOutliveDelegate.record(
                    "The list released its delegate \(when). The delegate is gone, but its loads kept waiting for the service: nothing cancelled them."
                )
            }
        }
        service.releaseAll()
        await awaitResult(of: { for load in loads { await load.value } }, orRecord: Bugs.loadNeverEnds)
        let shownAfter = list.displays.dropFirst(shownBefore)
        if !shownAfter.isEmpty {
            Bugs.loadsOutliveDelegate.record(
                "After the delegate was released, its loads still showed "
                    + shownAfter.map { "\"\($0.thumbnailID)\"" }.joined(separator: ", ") + ".")
        }
        #expect(released == nil, "Once every load has ended, nothing should keep the delegate alive.")
    }
}

private func describe(_ displays: some Sequence<CellDisplay>) -> String {
    displays.map { "\"\($0.thumbnailID)\" in cell \($0.cell) while it showed \($0.item?.id ?? "nothing")" }
        .joined(separator: "; ")
}

@MainActor
private func describeCell(_ cell: ListCell) -> String {
    "cell \(cell.number) shows \(cell.item?.id ?? "nothing") with the image of \(cell.image?.id ?? "nothing")"
}
