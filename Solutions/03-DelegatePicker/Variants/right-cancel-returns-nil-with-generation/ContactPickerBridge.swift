import SimulatedWorld

/// Turns the delegate-based ``ContactPicker`` into one async call.
@MainActor
public final class ContactPickerBridge: ContactPickerDelegate {
    private let picker: ContactPicker
    /// The caller waiting for the user, and the number of its pick.
    private var waiting: (pick: Int, continuation: CheckedContinuation<Contact?, Never>)?
    private var picks = 0

    public init(picker: ContactPicker) {
        self.picker = picker
        picker.delegate = self
    }

    public func pick() async -> Contact? {
        guard !Task.isCancelled, waiting == nil else { return nil }
        picks += 1
        let thisPick = picks
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiting = (thisPick, continuation)
                picker.present()
            }
        } onCancel: {
            Task { @MainActor in self.finish(pick: thisPick, with: nil) }
        }
    }

    public func contactPicker(_ picker: ContactPicker, didSelect contact: Contact) {
        finish(pick: waiting?.pick, with: contact)
    }

    public func contactPickerDidCancel(_ picker: ContactPicker) {
        finish(pick: waiting?.pick, with: nil)
    }

    /// Resumes pick number `pick` if it is still the one waiting; otherwise does nothing.
    private func finish(pick: Int?, with contact: Contact?) {
        guard let waiting, waiting.pick == pick else { return }
        self.waiting = nil
        waiting.continuation.resume(returning: contact)
    }
}
