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
            guard !Task.isCancelled else { return }
            guard let thumbnail = try? await service.fetchImage(id: item.id) else { return }
            cell.show(thumbnail)
        }
    }

    public func didEndDisplay(item: ListItem, in cell: ListCell) {
        loads.removeValue(forKey: item)?.cancel()
    }
}
