import SimulatedWorld

/// Turns the delegate-based ``ContactPicker`` into one async call.
///
/// Exercise: picking a contact works. Run `swift run workbook check 03` (or
/// `swift test --filter Ch03DelegatePickerTests`)
/// to see what happens when the user cancels, when the picker repeats itself, when the picker
/// answers at once, and when `pick()` is called twice. Read Chapters/03-DelegatePicker/README.md first.
@MainActor
public final class ContactPickerBridge: ContactPickerDelegate {
    private let picker: ContactPicker
    private var continuation: CheckedContinuation<Contact?, Never>?

    public init(picker: ContactPicker) {
        self.picker = picker
        picker.delegate = self
    }

    /// Shows the picker and returns the contact the user chose, or nil if they cancelled.
    public func pick() async -> Contact? {
        // Shows the picker, then waits for its answer.
        picker.present()
        return await withCheckedContinuation { continuation in
            self.continuation = continuation
        }
    }

    public func contactPicker(_ picker: ContactPicker, didSelect contact: Contact) {
        continuation?.resume(returning: contact)
    }

    public func contactPickerDidCancel(_ picker: ContactPicker) {
        print("The user closed the contact picker.")
    }
}
