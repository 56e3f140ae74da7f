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
        return await withCheckedContinuation { continuation in
            self.continuation = continuation
            picker.present()
        }
    }

    public func contactPicker(_ picker: ContactPicker, didSelect contact: Contact) {
        finish(with: contact)
    }

    public func contactPickerDidCancel(_ picker: ContactPicker) {
        print("The user closed the contact picker.")
    }

    private func finish(with contact: Contact?) {
        let waiting = continuation
        continuation = nil
        waiting?.resume(returning: contact)
    }
}
