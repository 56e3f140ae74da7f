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
        loads[item] = Task.detached(priority: Task.currentPriority) { [weak self, service] in
            let thumbnail = try? await service.fetchImage(id: item.id)
            await MainActor.run {
                // didEndDisplay runs on the main actor too: it cannot slip in between.
                guard !Task.isCancelled else { return }
                self?.loads[item] = nil
                if let thumbnail { cell.show(thumbnail) }
            }
        }
    }

    public func didEndDisplay(item: ListItem, in cell: ListCell) {
        loads.removeValue(forKey: item)?.cancel()
    }
}
