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
    static let cancelledTaskShowsPicker = reading.lesson(
        "pick() in a cancelled task shows the picker",
        "the task that called pick() was already cancelled (the screen that wanted a contact is gone), yet pick() showed the picker and waited for the user; check Task.isCancelled first and return nil without presenting",
        section: "A task that is already cancelled")
    static let cancelWhileOpenBreaksPick = reading.lesson(
        "a cancel while the picker is open breaks pick()",
        "the task awaiting pick() was cancelled while the picker was on screen, then the user answered; pick() must still return exactly once (nil at the cancel, or the user's answer), and whoever resumes the continuation must clear it",
        section: "A cancel while the picker is open")
    static let nextPickTurnedAway = reading.lesson(
        "after an answer, the next pick() is turned away",
        "the user had answered the last pick, yet the next pick() did not show the picker; the stored continuation must be set back to nil when it is resumed, or the bridge thinks a pick is still waiting",
        section: "Clear the continuation after resuming")
    static let immediateAnswerLost = reading.lesson(
        "an answer that comes at once finds no continuation",
        "the picker told its delegate the user's answer inside present(), before present() returned, and pick() is still suspended; store the continuation first, then present the picker, so an answer that comes at once has a caller to resume",
        section: "Store the continuation before you present")
    static let crashed = reading.lesson(
        "the picker bridge crashed the process",
        "a continuation must be resumed exactly once; resuming twice traps",
        section: "Clear the continuation after resuming")
}

private let alice = Contact.sample("Alice")
private let bob = Contact.sample("Bob")

/// Starts `bridge.pick()` in a task and returns it once the picker is on screen for the
/// `count`th time. If it never is, records `lesson` and returns nil: the scenario stops there,
/// since nobody can answer a picker that isn't shown.
@MainActor
private func startPick(
    _ bridge: ContactPickerBridge, showing picker: ContactPicker, time count: Int = 1,
    orRecord lesson: Lesson = Bugs.neverPresents
) async -> Task<Contact?, Never>? {
    let pick = Task { await bridge.pick() }
    // A second pick may drop the first one's continuation while this waits: the runtime's
    // report of that leak says nothing about whether the picker is shown.
    let shown = await awaitResult(
        of: { await picker.presentations.reach(count) }, orRecord: lesson, endsOnLeak: false)
    return shown == nil ? nil : pick
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
enum Scenario: String, ChildScenario, CaseIterable {
    case userSelects, userCancels, pickerRepeatsItself, secondPickWhileOpen, pickAgainAfterAnswer
    case pickInCancelledTask, cancelWhilePickerIsOpen, pickerAnswersAtOnce

    @MainActor
    func run() async {
        switch self {
        case .userSelects: await Play.userSelects()
        case .userCancels: await Play.userCancels()
        case .pickerRepeatsItself: await Play.pickerRepeatsItself()
        case .secondPickWhileOpen: await Play.secondPickWhileOpen()
        case .pickAgainAfterAnswer: await Play.pickAgainAfterAnswer()
        case .pickInCancelledTask: await Play.pickInCancelledTask()
        case .cancelWhilePickerIsOpen: await Play.cancelWhilePickerIsOpen()
        case .pickerAnswersAtOnce: await Play.pickerAnswersAtOnce()
        }
    }

    /// Runs this scenario in a child process; if the child traps, records `crash` with the
    /// runtime's last words.
    func runInChildProcess(
        explainingACrashAs crash: Lesson = Bugs.crashed, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        if await Self.sharedChild.ranShared(self, crash: crash, sourceLocation: sourceLocation) { return }
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .success, crash.comment, sourceLocation: sourceLocation) {
                [log = log as CrashLog, scenario = self as Scenario] in
                await log.runScenario {
                    await scenario.run()
                }
            }
        }
        log.explain(run, as: crash, sourceLocation: sourceLocation)
    }

    /// In CI's repeated runs, one child process runs every scenario (see `SharedChild`).
    private static let sharedChild = SharedChild<Scenario> { log, scenarios in
        await #expect(processExitsWith: .success, SharedChild<Scenario>.launchComment) {
            [log = log as CrashLog, scenarios = scenarios as [Scenario]] in
            await log.runScenarios(scenarios) { await $0.run() }
        }
    }
}

/// What each scenario does, acting as the user on the main actor.
@MainActor
private enum Play {
    static func userSelects() async {
        let picker = ContactPicker()
        guard let pick = await startPick(ContactPickerBridge(picker: picker), showing: picker) else { return }
        picker.userSelects(alice)
        let contact = await answer(of: pick, orRecord: Bugs.neverResumes)
        #expect(contact == .some(alice), Bugs.wrongAnswer.comment)
    }

    static func userCancels() async {
        let picker = ContactPicker()
        guard let pick = await startPick(ContactPickerBridge(picker: picker), showing: picker) else { return }
        picker.userCancels()
        if let contact = await answer(of: pick, orRecord: Bugs.cancelNeverResumes) {
            #expect(contact == nil, Bugs.wrongAnswer.comment)
        }
    }

    static func pickerRepeatsItself() async {
        let selecting = ContactPicker(repeatsDelegateCalls: true)
        guard let selected = await startPick(ContactPickerBridge(picker: selecting), showing: selecting) else { return }
        selecting.userSelects(alice)
        #expect(await answer(of: selected, orRecord: Bugs.neverResumes) == .some(alice), Bugs.wrongAnswer.comment)

        let cancelling = ContactPicker(repeatsDelegateCalls: true)
        guard let cancelled = await startPick(ContactPickerBridge(picker: cancelling), showing: cancelling) else {
            return
        }
        cancelling.userCancels()
        if let contact = await answer(of: cancelled, orRecord: Bugs.cancelNeverResumes) {
            #expect(contact == nil, Bugs.wrongAnswer.comment)
        }
    }

    static func secondPickWhileOpen() async {
        let picker = ContactPicker()
        let bridge = ContactPickerBridge(picker: picker)
        guard let first = await startPick(bridge, showing: picker) else { return }
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
        guard let first = await startPick(bridge, showing: picker, time: 1) else { return }
        picker.userSelects(alice)
        #expect(await answer(of: first, orRecord: Bugs.neverResumes) == .some(alice), Bugs.wrongAnswer.comment)
        guard let second = await startPick(bridge, showing: picker, time: 2, orRecord: Bugs.nextPickTurnedAway) else {
            return
        }
        picker.userSelects(bob)
        #expect(await answer(of: second, orRecord: Bugs.neverResumes) == .some(bob), Bugs.wrongAnswer.comment)
    }

    static func pickInCancelledTask() async {
        let picker = ContactPicker()
        let bridge = ContactPickerBridge(picker: picker)
        // The task runs on the main actor, which this code holds until its next `await`:
        // it is cancelled before its first line runs.
        let cancelled = Task { await bridge.pick() }
        cancelled.cancel()
        if let contact = await answer(of: cancelled, orRecord: Bugs.cancelledTaskShowsPicker) {
            #expect(
                contact == nil,
                "\(Bugs.cancelledTaskShowsPicker.message)\n  pick() returned \(contact.map { "\($0)" } ?? "nil").")
        }
        let shown = picker.presentations.value
        #expect(
            shown == 0,
            "\(Bugs.cancelledTaskShowsPicker.message)\n  The picker was presented \(shown) time(s) for a task that was already cancelled."
        )
        guard shown == 0 else { return }

        // A cancelled pick leaves nothing behind: the next one works.
        guard let next = await startPick(bridge, showing: picker) else { return }
        picker.userSelects(bob)
        #expect(await answer(of: next, orRecord: Bugs.neverResumes) == .some(bob), Bugs.wrongAnswer.comment)
    }

    static func pickerAnswersAtOnce() async {
        // The picker tells its delegate inside present(), before present() returns: only a
        // continuation stored before present() is there to hear it.
        let picker = ContactPicker(answersWhenPresented: alice)
        let bridge = ContactPickerBridge(picker: picker)
        if let picked = await awaitResult(of: { await bridge.pick() }, orRecord: Bugs.immediateAnswerLost) {
            #expect(picked.value == .some(alice), Bugs.wrongAnswer.comment)
        }
    }

    static func cancelWhilePickerIsOpen() async {
        let picker = ContactPicker()
        let bridge = ContactPickerBridge(picker: picker)
        guard let pick = await startPick(bridge, showing: picker) else { return }
        pick.cancel()
        // Work the cancel sent to the main actor (a cancellation handler's hop) runs first,
        // then the user answers. A bridge that waits for the user is as right as one that
        // returns nil at the cancel; either must return once, and nothing may trap.
        await MainQueue.drain()
        picker.userSelects(alice)
        if let contact = await answer(of: pick, orRecord: Bugs.cancelWhileOpenBreaksPick) {
            #expect(
                contact == nil || contact == alice,
                "\(Bugs.cancelWhileOpenBreaksPick.message)\n  pick() returned \(contact.map { "\($0)" } ?? "nil").")
        }

        // The bridge is ready for the next pick.
        guard let next = await startPick(bridge, showing: picker, time: 2, orRecord: Bugs.nextPickTurnedAway) else {
            return
        }
        picker.userSelects(bob)
        #expect(await answer(of: next, orRecord: Bugs.neverResumes) == .some(bob), Bugs.wrongAnswer.comment)
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

    @Test(
        "pick() in a task that is already cancelled returns nil at once, without showing the picker",
        .exposesBug(Bugs.cancelledTaskShowsPicker))
    func pickInCancelledTask() async {
        await Scenario.pickInCancelledTask.runInChildProcess()
    }

    @Test(
        "A picker that answers inside present(): pick() returns that answer", .exposesBug(Bugs.immediateAnswerLost))
    func pickerAnswersAtOnce() async {
        await Scenario.pickerAnswersAtOnce.runInChildProcess()
    }

    @Test("A cancel while the picker is open: pick() still returns once, nothing traps, the next pick() works")
    func cancelWhilePickerIsOpen() async {
        await Scenario.cancelWhilePickerIsOpen.runInChildProcess(explainingACrashAs: Bugs.cancelWhileOpenBreaksPick)
    }
}
