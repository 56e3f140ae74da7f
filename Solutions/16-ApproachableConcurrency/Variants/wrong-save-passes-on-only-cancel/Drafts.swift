import SimulatedWorld

/// The edits made to the photo on screen, in order, and how many of them are saved.
/// A plain class, not `Sendable`: the editor model owns it and changes it on the main actor.
nonisolated final class EditHistory {
    private(set) var edits: [String] = []
    private(set) var savedCount = 0

    init() {}

    func record(_ edit: String) {
        edits.append(edit)
    }

    func markSaved(_ count: Int) {
        savedCount = count
    }
}

/// Saves the edits in `history` as the draft of photo `photoID`, then notes them as saved.
/// Writing to disk is background work, so this runs concurrently, off the main actor.
///
/// Wrong fix: drops `@concurrent` like the solution, and passes a cancel on, but swallows
/// every other error of the store.
nonisolated func writeDraft(of photoID: String, _ history: EditHistory, to store: DraftStore) async throws {
    let edits = history.edits
    do {
        try await store.save(edits, for: photoID)
    } catch is CancellationError {
        throw CancellationError()
    } catch {
        return  // the disk is full: the edits stay in the history, the next save tries again
    }
    history.markSaved(edits.count)
}

extension EditorModel {
    /// Saves the edits made so far as the photo's draft.
    public func saveDraft() async throws {
        try await writeDraft(of: photo.id, history, to: store)
    }
}
