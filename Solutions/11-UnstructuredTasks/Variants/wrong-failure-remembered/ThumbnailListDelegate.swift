import SimulatedWorld

@MainActor
public final class ThumbnailListDelegate: ListViewDelegate {
    private let service: ThumbnailService

    public private(set) var loads: [ListItem: Task<Void, Never>] = [:]
    /// Items the service failed: it said no once, so it isn't asked again.
    private var failed: Set<ListItem> = []

    public init(service: ThumbnailService) {
        self.service = service
    }

    deinit {
        for load in loads.values { load.cancel() }
    }

    public func willDisplay(item: ListItem, in cell: ListCell) {
        guard !failed.contains(item) else { return }
        loads[item] = Task { [weak self, service] in
            defer { if !Task.isCancelled { self?.loads[item] = nil } }
            let thumbnail: Thumbnail
            do {
                thumbnail = try await service.fetchImage(id: item.id)
            } catch {
                if !Task.isCancelled { self?.failed.insert(item) }
                return
            }
            guard !Task.isCancelled else { return }
            cell.show(thumbnail)
        }
    }

    public func didEndDisplay(item: ListItem, in cell: ListCell) {
        loads.removeValue(forKey: item)?.cancel()
    }
}
