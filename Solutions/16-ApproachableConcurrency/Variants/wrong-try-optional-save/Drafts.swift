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
/// Solution: not `@concurrent`. This function only waits for the disk; it computes nothing,
/// so there is nothing to gain from leaving the main actor, and a `@concurrent` function
/// may not take `history`, which the main actor owns and keeps changing. A `nonisolated`
/// async function is `nonisolated(nonsending)` in this module: it runs on its caller's
/// actor, so it may use the caller's non-`Sendable` state. While it waits, the main actor is free.
nonisolated func writeDraft(of photoID: String, _ history: EditHistory, to store: DraftStore) async throws {
    let edits = history.edits
    try? await store.save(edits, for: photoID)
    history.markSaved(edits.count)
}

extension EditorModel {
    /// Saves the edits made so far as the photo's draft.
    public func saveDraft() async throws {
        try await writeDraft(of: photo.id, history, to: store)
    }
}
