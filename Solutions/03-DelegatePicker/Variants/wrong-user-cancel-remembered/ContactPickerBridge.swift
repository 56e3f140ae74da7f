import SimulatedWorld

/// Turns the delegate-based ``ContactPicker`` into one async call.
///
/// One pick at a time: the picker is a single screen, so a `pick()` that starts while
/// another is waiting for the user returns nil at once and leaves the first one alone.
@MainActor
public final class ContactPickerBridge: ContactPickerDelegate {
    private let picker: ContactPicker
    /// The caller waiting for the user, if any. Taken out (set to nil) by whoever resumes it.
    private var continuation: CheckedContinuation<Contact?, Never>?
    /// Whether the pick was cancelled.
    private var cancelled = false

    public init(picker: ContactPicker) {
        self.picker = picker
        picker.delegate = self
    }

    /// Shows the picker and returns the contact the user chose, or nil if they cancelled.
    /// Returns nil at once, without showing a picker, if the calling task is already
    /// cancelled (nobody is left to use the answer) or if a pick is already waiting.
    ///
    /// A cancel that comes while the picker is open does not end the wait: the picker is on
    /// screen, and pick() returns the user's answer when it comes.
    public func pick() async -> Contact? {
        guard !Task.isCancelled, !cancelled else { return nil }
        guard continuation == nil else { return nil }
        return await withCheckedContinuation { continuation in
            self.continuation = continuation
            picker.present()
        }
    }

    public func contactPicker(_ picker: ContactPicker, didSelect contact: Contact) {
        finish(with: contact)
    }

    public func contactPickerDidCancel(_ picker: ContactPicker) {
        cancelled = true
        finish(with: nil)
    }

    /// Resumes the waiting caller once. A repeated delegate call finds nobody waiting.
    private func finish(with contact: Contact?) {
        let waiting = continuation
        continuation = nil
        waiting?.resume(returning: contact)
    }
}
