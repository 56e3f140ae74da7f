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
    static let loadsPileUp = reading.lesson(
        "finished loads stay in the dictionary",
        "every task handle stays in `loads` after its work is done, so the dictionary grows with every row ever shown",
        section: "Clean up after every task")
    static let cellTouchedOffMainActor = reading.lesson(
        "a cell is touched off the main actor",
        "show(_:) ran on a background thread; cells, like every view, belong to the main actor",
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
        "didEndDisplay(item:in:) should cancel the item's task, but the first load of photo-0 was still waiting for the service",
        section: "Cancel when the item scrolls away")
    static let loadNeverEnds = reading.lesson(
        "a load never ends",
        "a task left in `loads` was still running long after the service had answered everything",
        section: "Clean up after every task")
}

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
            guard await requestsStarted(list.visibleRowCount + top) else { return false }
        }
        return true
    }

    /// Waits until `count` image requests have reached the service, or records `Bugs.neverLoads`.
    func requestsStarted(_ count: Int) async -> Bool {
        let started = service.started
        return await awaitResult(of: { await started.reach(count) }, orRecord: Bugs.neverLoads) != nil
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
        let photo0 = ListItem(id: "photo-0")
        var loads: [Task<Void, Never>] = []
        func scroll(toRow row: Int) {
            scrolling.list.scroll(toRow: row)
            loads += scrolling.delegate.loads.values
        }

        scroll(toRow: 0)
        guard await scrolling.requestsStarted(1), let firstLoad = scrolling.delegate.loads[photo0] else { return }
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
                    + ". Each load of photo-0 must be cancelled when photo-0 scrolls away, the second one too:"
                    + " check that nothing took it out of `loads` before that, such as the first load's cleanup.")
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

    @Test("Every thumbnail is shown on the main actor", .exposesBug(Bugs.cellTouchedOffMainActor))
    func showsOnTheMainActor() async {
        let scrolling = ScrollingList(items: 3, visibleRows: 3)
        scrolling.service.releaseAll()
        scrolling.list.scroll(toRow: 0)
        let shown = scrolling.list.displayCount
        await awaitResult(of: { await shown.reach(3) }, orRecord: Bugs.neverShown)

        let displays = scrolling.list.displays
        let offMain = displays.filter { !$0.onMainActor }.count
        if offMain > 0 {
            Bugs.cellTouchedOffMainActor.record(
                "\(offMain) of \(displays.count) calls to show(_:) ran off the main actor.")
        }
        #expect(scrolling.list.visibleCells.allSatisfy { $0.image?.id == $0.item?.id }, Bugs.neverShown.comment)
    }
}

private func describe(_ displays: some Sequence<CellDisplay>) -> String {
    displays.map { "\($0.thumbnailID) in cell \($0.cell) while it showed \($0.item?.id ?? "nothing")" }
        .joined(separator: "; ")
}

private func describeCell(_ cell: ListCell) -> String {
    "cell \(cell.number) shows \(cell.item?.id ?? "nothing") with the image of \(cell.image?.id ?? "nothing")"
}
