/// One item of a ``ListView``: a row that shows the thumbnail with the same id.
public struct ListItem: Sendable, Hashable, Codable, CustomStringConvertible {
    public let id: String

    public init(id: String) { self.id = id }

    /// `count` items named `photo-0`, `photo-1`, …
    public static func numbered(_ count: Int) -> [ListItem] {
        (0..<count).map { ListItem(id: "photo-\($0)") }
    }

    public var description: String { id }
}

/// One thumbnail put into one cell, as the cell recorded it.
public struct CellDisplay: Sendable, Hashable {
    /// The number of the cell that showed it.
    public let cell: Int
    /// The thumbnail that was shown.
    public let thumbnailID: String
    /// The item the cell was showing at that moment (nil: the cell was off screen).
    public let item: ListItem?
    /// Whether `show(_:)` was called on the main actor.
    public let onMainActor: Bool

    /// The cell was showing another item (or none): this image belongs elsewhere.
    public var isStale: Bool { item?.id != thumbnailID }
}

/// A reusable cell of a ``ListView``.
///
/// Like a view from an older framework, the cell carries no actor annotation, so the
/// compiler lets any code call ``show(_:)``. In an app, touching a view off the main thread
/// corrupts it; this simulation stays safe and records where each call came from instead.
public final class ListCell: Sendable {
    private struct State {
        var item: ListItem?
        var image: Thumbnail?
    }

    /// The cell's number in the list view's pool; it stays the same when the cell is reused.
    public let number: Int
    private let state = Locked(State())
    private let log: DisplayLog

    init(number: Int, log: DisplayLog) {
        self.number = number
        self.log = log
    }

    /// The item the list view has this cell showing, or nil while it waits for reuse.
    public var item: ListItem? { state.withLock { $0.item } }

    /// The thumbnail the cell shows now.
    public var image: Thumbnail? { state.withLock { $0.image } }

    /// Shows `thumbnail` in the cell. Records whether the call ran on the main actor and
    /// which item the cell was showing at that moment.
    public func show(_ thumbnail: Thumbnail) {
        let onMainActor = MainQueue.isCurrent
        let showing = state.withLock { state -> ListItem? in
            state.image = thumbnail
            return state.item
        }
        log.record(CellDisplay(cell: number, thumbnailID: thumbnail.id, item: showing, onMainActor: onMainActor))
    }

    /// The list view gives the cell a new item (or none) and clears its image, as
    /// `prepareForReuse` would.
    func reuse(for item: ListItem?) {
        state.withLock { $0 = State(item: item, image: nil) }
    }
}

/// Every ``CellDisplay`` of one list view, in order, with a count tests can await.
final class DisplayLog: Sendable {
    private let entries = Locked<[CellDisplay]>([])
    let count = ObservedCount()

    var all: [CellDisplay] { entries.withLock { $0 } }

    func record(_ display: CellDisplay) {
        entries.withLock { $0.append(display) }
        count.increment()
    }
}
