import SimulatedWorld

/// Loads the thumbnail of every row that scrolls into sight and shows it in the row's cell.
///
/// Solution: one unstructured task per visible item. It inherits the main actor (and the
/// priority of the scrolling) from `willDisplay`, so the cancellation check and the cell
/// are on the main actor together, while the download itself suspends instead of blocking
/// it. The task is cancelled when its item scrolls away, removes itself from ``loads`` when
/// it ends, and holds the delegate only weakly, so that a delegate released mid-load goes
/// away at once and cancels what it started.
@MainActor
public final class ThumbnailListDelegate: ListViewDelegate {
    private let service: ThumbnailService

    /// The loads still running, one per item on screen. Empty once all work has settled.
    public private(set) var loads: [ListItem: Task<Void, Never>] = [:]

    public init(service: ThumbnailService) {
        self.service = service
    }

    // The delegate started these loads; once it is gone, nobody else can stop them.
    // deinit is nonisolated, but it may read `loads`: a stored property of Sendable type.
    deinit {
        for load in loads.values { load.cancel() }
    }

    public func willDisplay(item: ListItem, in cell: ListCell) {
        // `[weak self]`: a strong capture would keep the delegate alive until the load ends,
        // and its deinit, which cancels the loads, could not run before that.
        loads[item] = Task { [weak self, service] in
            // A cancelled load was already taken out by didEndDisplay, and the item may
            // have a newer load in its slot by now: only a load that ran to the end
            // removes itself.
            defer { if !Task.isCancelled { self?.loads[item] = nil } }
            guard let thumbnail = try? await service.fetchImage(id: item.id) else { return }
            // The answer may have come just as the row scrolled away: check on the main
            // actor, in the same turn as the show.
            guard !Task.isCancelled else { return }
            cell.show(thumbnail)
        }
    }

    public func didEndDisplay(item: ListItem, in cell: ListCell) {
        loads.removeValue(forKey: item)?.cancel()
    }
}
