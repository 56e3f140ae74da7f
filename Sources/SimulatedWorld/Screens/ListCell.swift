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
public struct CellDisplay: Sendable, Equatable {
    /// The number of the cell that showed it.
    public let cell: Int
    /// The thumbnail that was shown.
    public let thumbnailID: String
    /// The item the cell was showing at that moment (nil: the cell was off screen).
    public let item: ListItem?
    /// `Task.currentPriority` of the code that called `show(_:)`: for a load, the
    /// priority of the task that loaded the thumbnail.
    public let priority: TaskPriority
    /// Whether the task that called `show(_:)` had already been cancelled.
    public let byCancelledTask: Bool

    /// The cell was showing another item (or none): this image belongs elsewhere.
    public var isStale: Bool { item?.id != thumbnailID }
}

/// A reusable cell of a ``ListView``.
///
/// Like every UIKit view (`UITableViewCell` is a `UIView`), the cell belongs to the main
/// actor: the compiler lets only main-actor code call ``show(_:)``, and code elsewhere, a
/// detached task say, must `await` it. Each call is recorded, with the item the cell was
/// showing at that moment and the priority of the task that made the call.
@MainActor
public final class ListCell {
    /// The cell's number in the list view's pool; it stays the same when the cell is reused.
    public nonisolated let number: Int
    /// The item the list view has this cell showing, or nil while it waits for reuse.
    public private(set) var item: ListItem?
    /// The thumbnail the cell shows now.
    public private(set) var image: Thumbnail?
    private let log: DisplayLog

    init(number: Int, log: DisplayLog) {
        self.number = number
        self.log = log
    }

    /// Shows `thumbnail` in the cell. Records which item the cell was showing at that
    /// moment, and the calling task's priority.
    public func show(_ thumbnail: Thumbnail) {
        image = thumbnail
        log.record(
            CellDisplay(
                cell: number, thumbnailID: thumbnail.id, item: item, priority: Task.currentPriority,
                byCancelledTask: Task.isCancelled))
    }

    /// The list view gives the cell a new item (or none) and clears its image, as
    /// `prepareForReuse` would.
    func reuse(for item: ListItem?) {
        self.item = item
        image = nil
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
