import SimulatedWorld

@MainActor
public final class ThumbnailListDelegate: ListViewDelegate {
    private let service: ThumbnailService

    public private(set) var loads: [ListItem: Task<Void, Never>] = [:]
    private var generations: [ListItem: Int] = [:]
    private var lastGeneration = 0

    public init(service: ThumbnailService) {
        self.service = service
    }

    deinit {
        for load in loads.values { load.cancel() }
    }

    public func willDisplay(item: ListItem, in cell: ListCell) {
        lastGeneration += 1
        let generation = lastGeneration
        generations[item] = generation
        loads[item] = Task { [weak self, service] in
            defer { self?.loadEnded(item, generation: generation) }
            guard let thumbnail = try? await service.fetchImage(id: item.id) else { return }
            guard !Task.isCancelled else { return }
            cell.show(thumbnail)
        }
    }

    public func didEndDisplay(item: ListItem, in cell: ListCell) {
        loads[item]?.cancel()
    }

    private func loadEnded(_ item: ListItem, generation: Int) {
        guard generations[item] == generation else { return }
        generations[item] = nil
        loads[item] = nil
    }
}
