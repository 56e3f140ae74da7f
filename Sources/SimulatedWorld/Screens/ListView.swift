/// What a ``ListView`` tells its delegate as rows scroll in and out of sight.
///
/// Both calls come on the main actor, like UIKit's `willDisplay` and `didEndDisplaying`.
@MainActor
public protocol ListViewDelegate: AnyObject {
    /// `item` is about to appear, in `cell`.
    func willDisplay(item: ListItem, in cell: ListCell)
    /// `item` has scrolled out of sight; `cell` goes back to the pool for reuse.
    func didEndDisplay(item: ListItem, in cell: ListCell)
}

/// A simulated scrolling list on the main actor, with reused cells. No UIKit.
///
/// The tests scroll it with ``scroll(toRow:)``. A window of ``visibleRowCount`` rows is on
/// screen; rows leaving the window end their display and hand their cell back to the pool,
/// rows entering it take a cell from the pool. So one cell shows many items over time, and
/// an image meant for an earlier item can land in a cell that now shows a later one.
/// Every ``ListCell/show(_:)`` is recorded in ``displays``.
@MainActor
public final class ListView {
    /// The rows, top to bottom.
    public let items: [ListItem]
    /// How many rows fit on screen.
    public let visibleRowCount: Int
    /// Told about every row that appears or disappears.
    public weak var delegate: (any ListViewDelegate)?

    private let log = DisplayLog()
    private var pool: [ListCell]
    private var onScreen: [(row: Int, cell: ListCell)] = []

    /// A list of `items` with room for `visibleRowCount` rows. Nothing is on screen until
    /// the first ``scroll(toRow:)``.
    public init(items: [ListItem], visibleRowCount: Int) {
        precondition(visibleRowCount > 0, "a list view shows at least one row")
        self.items = items
        self.visibleRowCount = visibleRowCount
        let log = self.log
        pool = (0..<visibleRowCount).map { ListCell(number: $0, log: log) }
    }

    /// The items on screen now, top to bottom.
    public var visibleItems: [ListItem] { onScreen.map { items[$0.row] } }

    /// The cells on screen now, top to bottom.
    public var visibleCells: [ListCell] { onScreen.map(\.cell) }

    /// Every image any cell has shown, in order.
    public var displays: [CellDisplay] { log.all }

    /// How many images cells have shown so far; tests await it.
    public var displayCount: ObservedCount { log.count }

    /// Scrolls so that `row` is the top row on screen (clamped to the list).
    /// Rows that leave the screen get `didEndDisplay` first, then rows that enter get
    /// `willDisplay`, top to bottom. A cell leaving the screen is cleared and goes to the
    /// back of the pool; an entering row takes the cell at the front.
    public func scroll(toRow row: Int) {
        let top = max(0, min(row, items.count - visibleRowCount))
        let wanted = top..<min(items.count, top + visibleRowCount)

        let leaving = onScreen.filter { !wanted.contains($0.row) }
        onScreen.removeAll { !wanted.contains($0.row) }
        for (row, cell) in leaving {
            cell.reuse(for: nil)
            pool.append(cell)
            delegate?.didEndDisplay(item: items[row], in: cell)
        }

        let shown = Set(onScreen.map(\.row))
        for row in wanted where !shown.contains(row) {
            let cell = pool.removeFirst()
            cell.reuse(for: items[row])
            onScreen.append((row, cell))
            delegate?.willDisplay(item: items[row], in: cell)
        }
        onScreen.sort { $0.row < $1.row }
    }
}
