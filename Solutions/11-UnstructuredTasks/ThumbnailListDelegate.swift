import SimulatedWorld

/// Loads the thumbnail of every row that scrolls into sight and shows it in the row's cell.
///
/// Solution: one unstructured task per visible item. It inherits the main actor from
/// `willDisplay`, so the cell is touched on the main actor, while the download itself
/// suspends instead of blocking it. The task is cancelled when its item scrolls away and
/// removes itself from ``loads`` when it ends.
@MainActor
public final class ThumbnailListDelegate: ListViewDelegate {
    private let service: ThumbnailService

    /// The loads still running, one per item on screen. Empty once all work has settled.
    public private(set) var loads: [ListItem: Task<Void, Never>] = [:]

    public init(service: ThumbnailService) {
        self.service = service
    }

    public func willDisplay(item: ListItem, in cell: ListCell) {
        loads[item] = Task {
            // A cancelled load was already taken out by didEndDisplay, and the item may
            // have a newer load in its slot by now: only a load that ran to the end
            // removes itself.
            defer { if !Task.isCancelled { loads[item] = nil } }
            guard let thumbnail = try? await service.fetchImage(id: item.id) else { return }
            guard !Task.isCancelled else { return }
            cell.show(thumbnail)
        }
    }

    public func didEndDisplay(item: ListItem, in cell: ListCell) {
        loads.removeValue(forKey: item)?.cancel()
    }
}
