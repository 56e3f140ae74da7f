/// A contact in the simulated address book.
public struct Contact: Sendable, Hashable, Codable, CustomStringConvertible {
    public let name: String
    public let phone: String

    public init(name: String, phone: String) {
        self.name = name
        self.phone = phone
    }

    public var description: String { "Contact(\(name))" }

    /// A small, recognisable contact for tests.
    public static func sample(_ name: String) -> Contact {
        Contact(name: name, phone: "555-01\(name.count)")
    }
}

/// What a ``ContactPicker`` tells its delegate, on the main actor, like a UIKit picker does.
@MainActor
public protocol ContactPickerDelegate: AnyObject {
    /// The user chose `contact`. The picker has already closed.
    func contactPicker(_ picker: ContactPicker, didSelect contact: Contact)
    /// The user closed the picker without choosing. The picker has already closed.
    func contactPickerDidCancel(_ picker: ContactPicker)
}

/// A simulated contact picker with a delegate API, standing in for `CNContactPickerViewController`.
///
/// Code under test calls ``present()`` and waits for the delegate. The tests then play the
/// user with ``userSelects(_:)`` or ``userCancels()``. Each answer goes to the delegate
/// synchronously, once, unless the picker was built with `repeatsDelegateCalls: true`: then
/// it calls the delegate method twice, the way real frameworks sometimes do. A picker built
/// with `answersWhenPresented:` answers inside ``present()`` itself, before it returns, the
/// way a framework can when it already knows the answer (nothing to choose from, say).
@MainActor
public final class ContactPicker {
    /// Receives the user's answer. Held weakly, as delegates are.
    public weak var delegate: (any ContactPickerDelegate)?
    /// How many times the picker has been presented.
    public let presentations = ObservedCount()
    /// Whether the picker is on screen, waiting for the user.
    public private(set) var isPresented = false
    private let repeatsDelegateCalls: Bool
    /// The answer given inside ``present()``: a contact, or nil for a cancel.
    private let immediateAnswer: Contact??

    public init(repeatsDelegateCalls: Bool = false) {
        self.repeatsDelegateCalls = repeatsDelegateCalls
        self.immediateAnswer = nil
    }

    /// A picker that answers at once: ``present()`` tells the delegate `answer` (a contact, or
    /// nil for a cancel) synchronously, before it returns.
    public init(answersWhenPresented answer: Contact?) {
        self.repeatsDelegateCalls = false
        self.immediateAnswer = .some(answer)
    }

    /// Shows the picker. The answer comes later, through the delegate, unless this picker
    /// answers at once: then the delegate hears it before `present()` returns.
    public func present() {
        isPresented = true
        presentations.increment()
        switch immediateAnswer {
        case .none: break
        case .some(.some(let contact)): userSelects(contact)
        case .some(.none): userCancels()
        }
    }

    /// The user taps `contact`: the picker closes and tells the delegate.
    public func userSelects(_ contact: Contact) {
        answer { $0.contactPicker(self, didSelect: contact) }
    }

    /// The user taps Cancel: the picker closes and tells the delegate.
    public func userCancels() {
        answer { $0.contactPickerDidCancel(self) }
    }

    /// Answers for the user. A closed picker has nobody to answer: that does nothing.
    private func answer(_ tell: (any ContactPickerDelegate) -> Void) {
        guard isPresented else { return }
        isPresented = false
        guard let delegate else { return }
        tell(delegate)
        if repeatsDelegateCalls { tell(delegate) }
    }
}
