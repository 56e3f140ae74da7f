import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch03DelegatePickerSolution
#else
    import Ch03DelegatePicker
#endif

private let reading = ChapterReading("03-DelegatePicker")

/// What can go wrong in this chapter, in the learner's words.
enum Bugs {
    static let cancelNeverResumes = reading.lesson(
        "a cancelled pick() never returns",
        "the user tapped Cancel, the picker told its delegate, and pick() is still suspended; the cancel callback must resume the caller with nil",
        section: "Every delegate callback must resume")
    static let repeatedCallbackResumesTwice = reading.lesson(
        "a repeated delegate call resumes the continuation twice",
        "the picker called the delegate a second time, and the bridge resumed a continuation it had already resumed",
        section: "Clear the continuation after resuming")
    static let secondPickLeaksFirst = reading.lesson(
        "a second pick() leaks the first caller",
        "pick() was called while the picker was still open; the new continuation replaced the stored one, so the first caller can never return",
        section: "One pick at a time")
    static let secondPickNotRejected = reading.lesson(
        "a second pick() is not turned away",
        "while a pick is waiting for the user, another pick() should return nil at once and leave the open picker alone",
        section: "One pick at a time")
    static let wrongAnswer = reading.lesson(
        "pick() returned the wrong answer",
        "pick() should return the contact the user chose, or nil when they cancelled",
        section: "From delegate to async")
    static let neverResumes = reading.lesson(
        "pick() never returns after the user chose",
        "the user chose a contact, but the caller is still suspended",
        section: "Every delegate callback must resume")
    static let neverPresents = reading.lesson(
        "pick() never shows the picker",
        "pick() must call the picker's present() so that the user can answer",
        section: "From delegate to async")
    static let crashed = reading.lesson(
        "the picker bridge crashed the process",
        "a continuation must be resumed exactly once; resuming twice traps",
        section: "Clear the continuation after resuming")
}

private let alice = Contact.sample("Alice")
private let bob = Contact.sample("Bob")

/// Starts `bridge.pick()` in a task and returns once the picker is on screen for the `count`th time.
@MainActor
private func startPick(
    _ bridge: ContactPickerBridge, showing picker: ContactPicker, time count: Int = 1
) async -> Task<Contact?, Never> {
    let pick = Task { await bridge.pick() }
    await awaitResult(of: { await picker.presentations.reach(count) }, orRecord: Bugs.neverPresents)
    return pick
}

/// What `pick` returned, within the hang limit; records `lesson` if it is still suspended.
private func answer(
    of pick: Task<Contact?, Never>, orRecord lesson: Lesson,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> Contact?? {
    await awaitResult(of: { await pick.value }, orRecord: lesson, sourceLocation: sourceLocation)
        .map { $0.value ?? nil }
}

/// The chapter's scenarios. Each runs on the main actor, like the picker, in a child process
/// of its own (an exit test), so that a bridge that resumes twice traps there, not in the whole run.
enum Scenario: String, Codable, Sendable {
    case userSelects, userCancels, pickerRepeatsItself, secondPickWhileOpen, pickAgainAfterAnswer

    @MainActor
    func run() async {
        switch self {
        case .userSelects: await Play.userSelects()
        case .userCancels: await Play.userCancels()
        case .pickerRepeatsItself: await Play.pickerRepeatsItself()
        case .secondPickWhileOpen: await Play.secondPickWhileOpen()
        case .pickAgainAfterAnswer: await Play.pickAgainAfterAnswer()
        }
    }

    /// Runs this scenario in a child process; if the child traps, records `crash` with the
    /// runtime's last words.
    func runInChildProcess(
        explainingACrashAs crash: Lesson = Bugs.crashed, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let log = CrashLog()
        let run = await #expect(processExitsWith: .success, crash.comment, sourceLocation: sourceLocation) {
            [log = log as CrashLog, scenario = self as Scenario] in
            await log.runScenario {
                await scenario.run()
            }
        }
        log.explain(run, as: crash, sourceLocation: sourceLocation)
    }
}

/// What each scenario does, acting as the user on the main actor.
@MainActor
private enum Play {
    static func userSelects() async {
        let picker = ContactPicker()
        let pick = await startPick(ContactPickerBridge(picker: picker), showing: picker)
        picker.userSelects(alice)
        let contact = await answer(of: pick, orRecord: Bugs.neverResumes)
        #expect(contact == .some(alice), Bugs.wrongAnswer.comment)
    }

    static func userCancels() async {
        let picker = ContactPicker()
        let pick = await startPick(ContactPickerBridge(picker: picker), showing: picker)
        picker.userCancels()
        if let contact = await answer(of: pick, orRecord: Bugs.cancelNeverResumes) {
            #expect(contact == nil, Bugs.wrongAnswer.comment)
        }
    }

    static func pickerRepeatsItself() async {
        let selecting = ContactPicker(repeatsDelegateCalls: true)
        let selected = await startPick(ContactPickerBridge(picker: selecting), showing: selecting)
        selecting.userSelects(alice)
        #expect(await answer(of: selected, orRecord: Bugs.neverResumes) == .some(alice), Bugs.wrongAnswer.comment)

        let cancelling = ContactPicker(repeatsDelegateCalls: true)
        let cancelled = await startPick(ContactPickerBridge(picker: cancelling), showing: cancelling)
        cancelling.userCancels()
        if let contact = await answer(of: cancelled, orRecord: Bugs.cancelNeverResumes) {
            #expect(contact == nil, Bugs.wrongAnswer.comment)
        }
    }

    static func secondPickWhileOpen() async {
        let picker = ContactPicker()
        let bridge = ContactPickerBridge(picker: picker)
        let first = await startPick(bridge, showing: picker)
        let second = await awaitResult(of: { await bridge.pick() }, orRecord: Bugs.secondPickNotRejected)
        if let second {
            #expect(second.value == .some(nil), Bugs.secondPickNotRejected.comment)
        }
        #expect(picker.presentations.value == 1, Bugs.secondPickNotRejected.comment)

        picker.userSelects(alice)
        if let contact = await answer(of: first, orRecord: Bugs.secondPickLeaksFirst) {
            #expect(contact == alice, Bugs.secondPickLeaksFirst.comment)
        }
    }

    static func pickAgainAfterAnswer() async {
        let picker = ContactPicker()
        let bridge = ContactPickerBridge(picker: picker)
        let first = await startPick(bridge, showing: picker, time: 1)
        picker.userSelects(alice)
        #expect(await answer(of: first, orRecord: Bugs.neverResumes) == .some(alice), Bugs.wrongAnswer.comment)
        let second = await startPick(bridge, showing: picker, time: 2)
        picker.userSelects(bob)
        #expect(await answer(of: second, orRecord: Bugs.neverResumes) == .some(bob), Bugs.wrongAnswer.comment)
    }
}

@Suite("Chapter 03: a delegate-based contact picker as one async call")
struct ContactPickerBridgeTests {
    @Test("The user chooses a contact: pick() returns it")
    func selectReturnsTheContact() async {
        await Scenario.userSelects.runInChildProcess()
    }

    @Test("The user cancels: pick() returns nil", .exposesBug(Bugs.cancelNeverResumes))
    func cancelReturnsNil() async {
        await Scenario.userCancels.runInChildProcess()
    }

    @Test(
        "The picker calls its delegate twice: pick() returns once, nothing traps",
        .exposesBug(Bugs.repeatedCallbackResumesTwice))
    func repeatedDelegateCallIsIgnored() async {
        await Scenario.pickerRepeatsItself.runInChildProcess(
            explainingACrashAs: Bugs.repeatedCallbackResumesTwice)
    }

    @Test(
        "pick() while the picker is open returns nil at once; the first pick gets the answer",
        .exposesBug(Bugs.secondPickLeaksFirst, Bugs.secondPickNotRejected))
    func secondPickIsTurnedAway() async {
        await Scenario.secondPickWhileOpen.runInChildProcess()
    }

    @Test("After an answer, the next pick() shows the picker again and gets its own answer")
    func pickAgainAfterAnswer() async {
        await Scenario.pickAgainAfterAnswer.runInChildProcess()
    }
}
