import SimulatedWorld
import Testing

/// Records what the list view says, in order.
@MainActor
private final class CallLog: ListViewDelegate {
    var calls: [String] = []

    func willDisplay(item: ListItem, in cell: ListCell) {
        calls.append("show \(item) in cell \(cell.number)")
    }

    func didEndDisplay(item: ListItem, in cell: ListCell) {
        calls.append("end \(item) in cell \(cell.number)")
    }
}

@Suite("Simulated world: the list view and its reused cells")
@MainActor
struct ListViewTests {
    @Test("The first scroll shows a screenful; each step down ends the top row and reuses its cell")
    func scrollingReusesCells() {
        let list = ListView(items: ListItem.numbered(5), visibleRowCount: 2)
        let log = CallLog()
        list.delegate = log
        list.scroll(toRow: 0)
        list.scroll(toRow: 1)
        #expect(
            log.calls == [
                "show photo-0 in cell 0", "show photo-1 in cell 1",
                "end photo-0 in cell 0", "show photo-2 in cell 0",
            ])
        #expect(list.visibleItems == [ListItem(id: "photo-1"), ListItem(id: "photo-2")])
        #expect(list.visibleCells.map(\.number) == [1, 0])
        list.scroll(toRow: 99)
        #expect(list.visibleItems.map(\.id) == ["photo-3", "photo-4"], "scrolling stops at the bottom")
    }

    @Test("A reused cell is cleared, and a late image for its old item is recorded as stale")
    func staleDisplaysAreRecorded() {
        let list = ListView(items: ListItem.numbered(3), visibleRowCount: 1)
        list.scroll(toRow: 0)
        let cell = list.visibleCells[0]
        cell.show(.expected(for: "photo-0"))
        list.scroll(toRow: 1)
        #expect(cell.item == ListItem(id: "photo-1") && cell.image == nil)
        cell.show(.expected(for: "photo-0"))
        #expect(list.displays.map(\.isStale) == [false, true])
        #expect(list.displayCount.value == 2)
    }

    @Test("A cell records the priority of the task that shows an image, and whether it was cancelled")
    func displaysRecordTheCallingTask() async {
        let list = ListView(items: ListItem.numbered(1), visibleRowCount: 1)
        list.scroll(toRow: 0)
        let cell = list.visibleCells[0]
        await Task(priority: .userInitiated) { @MainActor in cell.show(.expected(for: "photo-0")) }.value
        let cancelled = Task { @MainActor in
            withUnsafeCurrentTask { $0?.cancel() }
            cell.show(.expected(for: "photo-0"))
        }
        await cancelled.value
        #expect(list.displays.map(\.byCancelledTask) == [false, true])
        #expect(list.displays.first?.priority == .userInitiated)
    }

    @Test("The probe tells the main actor from a detached task")
    func probeSeesTheMainActor() async {
        #expect(MainQueue.isCurrent)
        let cell = ListView(items: ListItem.numbered(1), visibleRowCount: 1).visibleCells.first
        #expect(cell == nil, "nothing is on screen before the first scroll")
        let elsewhere = await Task.detached { MainQueue.isCurrent }.value
        #expect(!elsewhere)
    }
}
