import SimulatedWorld

/// Loads the thumbnail of every row that scrolls into sight and shows it in the row's cell.
///
/// Exercise: scroll slowly and it looks fine. Run
/// `swift run workbook check 11` (or `swift test --filter Ch11UnstructuredTasksTests`) to see
/// what fast scrolling does to reused cells, to the dictionary of loads, to the priority of
/// the loads, and to the loads of a list that goes away.
/// Read Chapters/11-UnstructuredTasks/README.md first.
@MainActor
public final class ThumbnailListDelegate: ListViewDelegate {
    private let service: ThumbnailService

    /// The load started for each item, kept so that it can be found again.
    public private(set) var loads: [ListItem: Task<Void, Never>] = [:]

    public init(service: ThumbnailService) {
        self.service = service
    }

    public func willDisplay(item: ListItem, in cell: ListCell) {
        // Detached, to keep the download off the main thread. The cell belongs to the main
        // actor, so the compiler wants an `await` to reach it from here.
        loads[item] = Task.detached { [service] in
            guard let thumbnail = try? await service.fetchImage(id: item.id) else { return }
            await cell.show(thumbnail)
        }
    }

    public func didEndDisplay(item: ListItem, in cell: ListCell) {
        // The load finishes on its own; nothing to do here.
    }
}
