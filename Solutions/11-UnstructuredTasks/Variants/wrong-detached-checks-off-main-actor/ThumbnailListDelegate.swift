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
        loads[item] = Task.detached { [weak self, service] in
            guard let thumbnail = try? await service.fetchImage(id: item.id), !Task.isCancelled else { return }
            await cell.show(thumbnail)
            await MainActor.run { self?.loads[item] = nil }
        }
    }

    public func didEndDisplay(item: ListItem, in cell: ListCell) {
        loads.removeValue(forKey: item)?.cancel()
    }
}
