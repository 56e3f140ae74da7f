import SimulatedWorld
import Testing

/// Writes down every delegate call it gets.
@MainActor
private final class DelegateCalls: ContactPickerDelegate {
    var calls: [String] = []
    func contactPicker(_ picker: ContactPicker, didSelect contact: Contact) { calls.append("select \(contact.name)") }
    func contactPickerDidCancel(_ picker: ContactPicker) { calls.append("cancel") }
}

@MainActor
@Suite("ContactPicker reports to its delegate like a UIKit picker")
struct ContactPickerTests {
    @Test("Each answer reaches the delegate once, and closes the picker")
    func oneCallPerAnswer() {
        let picker = ContactPicker()
        let delegate = DelegateCalls()
        picker.delegate = delegate
        picker.present()
        #expect(picker.isPresented && picker.presentations.value == 1)
        picker.userSelects(.sample("Ada"))
        #expect(!picker.isPresented)
        picker.present()
        picker.userCancels()
        #expect(delegate.calls == ["select Ada", "cancel"])
    }

    @Test("A misbehaving picker calls the delegate twice per answer")
    func repeatsDelegateCalls() {
        let picker = ContactPicker(repeatsDelegateCalls: true)
        let delegate = DelegateCalls()
        picker.delegate = delegate
        picker.present()
        picker.userCancels()
        #expect(delegate.calls == ["cancel", "cancel"])
    }

    @Test("A closed picker has no user to answer: nothing reaches the delegate")
    func closedPickerIsSilent() {
        let picker = ContactPicker()
        let delegate = DelegateCalls()
        picker.delegate = delegate
        picker.userSelects(.sample("Ada"))
        #expect(delegate.calls.isEmpty)
    }

    @Test("A picker that answers at once tells the delegate before present() returns, and closes")
    func answersWhenPresented() {
        let picker = ContactPicker(answersWhenPresented: .sample("Ada"))
        let delegate = DelegateCalls()
        picker.delegate = delegate
        picker.present()
        #expect(delegate.calls == ["select Ada"])
        #expect(!picker.isPresented && picker.presentations.value == 1)

        let cancelling = ContactPicker(answersWhenPresented: nil)
        cancelling.delegate = delegate
        cancelling.present()
        #expect(delegate.calls == ["select Ada", "cancel"])
    }
}
