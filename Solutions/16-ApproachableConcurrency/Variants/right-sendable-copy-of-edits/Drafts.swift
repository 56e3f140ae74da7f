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

/// Saves `edits` as the draft of photo `photoID`.
///
/// Right fix: still `@concurrent`, but it takes a `Sendable` copy of the edits, not the
/// main actor's history; the model notes them as saved once it is back on the main actor.
@concurrent func writeDraft(of photoID: String, _ edits: [String], to store: DraftStore) async throws {
    try await store.save(edits, for: photoID)
}

extension EditorModel {
    /// Saves the edits made so far as the photo's draft.
    public func saveDraft() async throws {
        let edits = history.edits
        try await writeDraft(of: photo.id, edits, to: store)
        history.markSaved(edits.count)
    }
}
