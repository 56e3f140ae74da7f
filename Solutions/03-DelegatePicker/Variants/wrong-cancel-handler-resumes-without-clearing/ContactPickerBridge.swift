import SimulatedWorld

/// Turns the delegate-based ``ContactPicker`` into one async call.
@MainActor
public final class ContactPickerBridge: ContactPickerDelegate {
    private let picker: ContactPicker
    private var continuation: CheckedContinuation<Contact?, Never>?

    public init(picker: ContactPicker) {
        self.picker = picker
        picker.delegate = self
    }

    public func pick() async -> Contact? {
        guard !Task.isCancelled else { return nil }
        guard continuation == nil else { return nil }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                self.continuation = continuation
                picker.present()
            }
        } onCancel: {
            Task { @MainActor in
                self.continuation?.resume(returning: nil)
            }
        }
    }

    public func contactPicker(_ picker: ContactPicker, didSelect contact: Contact) {
        finish(with: contact)
    }

    public func contactPickerDidCancel(_ picker: ContactPicker) {
        finish(with: nil)
    }

    private func finish(with contact: Contact?) {
        let waiting = continuation
        continuation = nil
        waiting?.resume(returning: contact)
    }
}
