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
            guard let thumbnail = try? await service.fetchImage(id: item.id) else { return }
            guard !Task.isCancelled else { return }
            cell.show(thumbnail)
        }
    }

    public func didEndDisplay(item: ListItem, in cell: ListCell) {
        // Every item that was displayed got a load in willDisplay.
        loads.removeValue(forKey: item)!.cancel()
    }
}
