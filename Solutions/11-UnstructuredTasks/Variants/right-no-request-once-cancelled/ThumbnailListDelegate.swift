import SimulatedWorld

@MainActor
public final class ThumbnailListDelegate: ListViewDelegate {
    private let service: ThumbnailService

    public private(set) var loads: [ListItem: Task<Void, Never>] = [:]

    public init(service: ThumbnailService) {
        self.service = service
    }

    deinit {
        for load in loads.values { load.cancel() }
    }

    public func willDisplay(item: ListItem, in cell: ListCell) {
        loads[item] = Task { [weak self, service] in
            defer { if !Task.isCancelled { self?.loads[item] = nil } }
            // Scrolled away before this load got its first turn: no request at all.
            if Task.isCancelled { return }
            do {
                let thumbnail = try await service.fetchImage(id: item.id)
                guard !Task.isCancelled else { return }
                cell.show(thumbnail)
            } catch {
                // A failed or cancelled request leaves the cell empty.
            }
        }
    }

    public func didEndDisplay(item: ListItem, in cell: ListCell) {
        loads.removeValue(forKey: item)?.cancel()
    }
}
