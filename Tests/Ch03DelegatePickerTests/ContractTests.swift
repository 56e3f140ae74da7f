import Foundation
import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch03DelegatePickerSolution
#else
    import Ch03DelegatePicker
#endif

// Chapter 03's contract (the reading's "Your task"), explored on its own: one pick, chosen or
// cancelled by the user, with the caller's task cancelled before the call, while the picker is
// open, as the user answers, after the answer, or never; one pick from a picker that answers
// inside present(), cancelled before the call or never; two picks in a row, each one cancelled
// by the user in turn, then made again; and sequences of picks, answers and cancelled tasks
// from fixed seeds against a model.
//
// Every exploration runs in a child process (an exit test): a bridge that resumes twice traps,
// and the trap ends only that child. The child notes each run it starts on standard error, so
// the parent can name the run, and the lesson, of a trap.

private let contract = ChapterReading("03-DelegatePicker")

extension Bugs {
    static let sequenceBroken = contract.lesson(
        "picks, answers and cancels in a row went wrong",
        "a sequence of pick() calls, answers from the user and cancelled tasks ended a pick otherwise than 'Your task' promises, or showed the picker when it should not; the reproducer lists the steps",
        section: "Your task")
    static let userCancelRemembered = contract.lesson(
        "the user's cancel is remembered",
        "the user cancelled one pick, and a later pick() did not show the picker or did not return its own answer; a Cancel answers one pick only, so the cancel path must leave the bridge as the choose path does: no continuation left stored, no flag that later picks obey",
        section: "Clear the continuation after resuming")
}

/// The contact the user chooses at step `number` of a run: a new one each time, so an old
/// answer given again shows.
private func friend(_ number: Int) -> Contact { .sample("Friend \(number)") }

/// How a pick() ended, in the learner's words; `nil` means it was still suspended.
private func describePick(_ end: Contact??) -> String {
    switch end {
    case .some(.some(let contact)): "returned \(contact)"
    case .some(.none): "returned nil"
    case .none: "was still suspended after \(hangLimit)"
    }
}

/// How picks one after the other ended: "pick 1 returned nil, pick 2 returned Contact(Friend 2)".
private func describePicks(_ ends: [Contact?]) -> String {
    ends.enumerated().map { "pick \($0.offset + 1) \(describePick($0.element))" }.joined(separator: ", ")
}

/// What the run's outcome says pick() returned: `nil` if it was still suspended.
private func pickEnd(_ outcome: Result<Contact?, any Error>?) -> Contact?? {
    guard case .success(let contact)? = outcome else { return nil }
    return .some(contact)
}

// MARK: Child processes

private let runMarker = "[contract run] "
private let trapMarker = "[a trap here means] "

/// In the child: notes on standard error the run about to start, and the lesson a trap in it teaches.
private func announce(_ run: String, trapMeans lesson: Lesson) {
    FileHandle.standardError.write(Data("\(runMarker)\(run)\n\(trapMarker)\(lesson.bug)\n".utf8))
}

/// The lessons a trap can teach, found by their bug phrase in the child's log.
private let trapLessons = [Bugs.repeatedCallbackResumesTwice, Bugs.cancelWhileOpenBreaksPick, Bugs.crashed]

/// A part of the contract, run in a child process of its own (see ``inChild(_:)``).
enum ContractPart: String, ChildScenario, CaseIterable {
    case cancelPoints, userCancels, sequences

    /// In the child: runs this part's explorations and records what they found.
    func run() async {
        switch self {
        case .cancelPoints:
            await exploreCancels(.chooses, repeats: false)
            await exploreCancels(.cancels, repeats: true)
            await exploreAnswerAtOnce()
        case .userCancels:
            await exploreUserCancels()
        case .sequences:
            await sequenceCheck.explore().record()
        }
    }
}

/// Runs `part` in a child process; a trap there is explained with the lesson its run named.
private func inChild(_ part: ContractPart, sourceLocation: SourceLocation = #_sourceLocation) async {
    if await sharedChild.ranShared(part, crash: Bugs.crashed, sourceLocation: sourceLocation) { return }
    let log = CrashLog()
    let run = await offThePool {
        await #expect(processExitsWith: .success, Bugs.crashed.comment, sourceLocation: sourceLocation) {
            [log = log as CrashLog, part = part as ContractPart] in
            await log.runScenario { await part.run() }
        }
    }
    let lines = log.contents.split(separator: "\n")
    let last = lines.last { $0.hasPrefix(runMarker) }.map { String($0.dropFirst(runMarker.count)) }
    let means = lines.last { $0.hasPrefix(trapMarker) }.map { String($0.dropFirst(trapMarker.count)) }
    log.explain(
        run, as: trapLessons.first { $0.bug == means } ?? Bugs.crashed,
        detail: last.map { "  The process ended during this run: \($0)." }, sourceLocation: sourceLocation)
}

/// In CI's repeated runs, one child process runs every part (see `SharedChild`).
private let sharedChild = SharedChild<ContractPart> { log, parts in
    await #expect(processExitsWith: .success, SharedChild<ContractPart>.launchComment) {
        [log = log as CrashLog, parts = parts as [ContractPart]] in
        await log.runScenarios(parts) { await $0.run() }
    }
}

// MARK: One pick at every cancel point, and picks in a row at every failure point

/// One run's picker and bridge. The instruments build a world off the main actor, where no
/// picker can be made, so the first pick() makes them, on the main actor (``scene(user:)``).
final class PickerWorld: Sendable {
    /// Whether the picker calls its delegate twice.
    let repeats: Bool
    /// What the picker answers inside present(), if it answers at once.
    let answerAtOnce: Contact?
    /// How many answers the user has given (the picker has told its delegate).
    let answers = ObservedCount()
    private let made = Locked<(picker: ContactPicker, bridge: ContactPickerBridge)?>(nil)
    private let over = Locked(false)

    init(repeatsDelegateCalls repeats: Bool = false, answeringAtOnce answer: Contact? = nil) {
        self.repeats = repeats
        self.answerAtOnce = answer
    }

    /// The picker and its bridge, made the first time, when `user` starts playing the user.
    @MainActor
    func scene(user: @escaping @Sendable @MainActor (ContactPicker) async -> Void) -> (
        picker: ContactPicker, bridge: ContactPickerBridge
    ) {
        if let scene = made.withLock({ $0 }) { return scene }
        let picker =
            answerAtOnce.map { ContactPicker(answersWhenPresented: $0) } ?? ContactPicker(repeatsDelegateCalls: repeats)
        let scene = (picker: picker, bridge: ContactPickerBridge(picker: picker))
        made.withLock { $0 = scene }
        Task { @MainActor in await user(picker) }
        return scene
    }

    /// The scene, if a pick() made it.
    var scene: (picker: ContactPicker, bridge: ContactPickerBridge)? { made.withLock { $0 } }

    /// Whether the run is over: the user no longer answers, the check plays the user itself.
    var isOver: Bool {
        get { over.withLock { $0 } }
        set { over.withLock { $0 = newValue } }
    }
}

/// What the user does with the open picker.
enum UserAnswer: String, Sendable {
    case chooses, cancels

    @MainActor
    func play(on picker: ContactPicker, contact: Contact) {
        self == .chooses ? picker.userSelects(contact) : picker.userCancels()
    }

    /// What pick() returns for this answer.
    func expected(_ contact: Contact) -> Contact? { self == .chooses ? contact : nil }
}

/// Names the runs of an every-cancel-point exploration in the order it makes them.
final class CancelPointNames: Sendable {
    private let made = Locked(0)

    /// The next run's name, and its cancel point (`nil` for the run without a cancel).
    func next() -> (name: String, point: Int?) {
        let run = made.withLock { made in
            made += 1
            return made
        }
        return run == 1 ? ("without a cancel", nil) : ("cancel point \(run - 2)", run - 2)
    }
}

/// Every cancel point of one pick the user answers: before the call (point 0), while the
/// picker is open (1: what the cancel sent to the main actor runs before the user answers), as
/// the user answers (2), and after the answer reached the bridge (3). Once the picker is shown,
/// pick() returns nil or the answer, once; then the next pick works.
private func exploreCancels(_ answer: UserAnswer, repeats: Bool) async {
    let scenario =
        "one pick(), the user \(answer.rawValue)" + (repeats ? ", the picker calling its delegate twice" : "")
    let names = CancelPointNames()
    let report = await exploreCancelPoints(
        scenario,
        world: { probe in
            let (name, point) = names.next()
            let lesson =
                repeats
                ? Bugs.repeatedCallbackResumesTwice
                : point == 1 || point == 2 ? Bugs.cancelWhileOpenBreaksPick : Bugs.crashed
            announce("\(scenario), \(name)", trapMeans: lesson)
            return (world: PickerWorld(repeatsDelegateCalls: repeats), probe: probe)
        },
        operation: { @MainActor run in
            let bridge = run.world.scene { picker in
                await playOnePick(answer, on: picker, in: run.world, probe: run.probe)
            }.bridge
            return await bridge.pick()
        }
    ) { run, world in await checkOnePick(run, world.world, answer: answer) }
    report.record()
}

/// A picker that answers inside present(), with the caller cancelled before the call (point 0)
/// or never: the answer is heard, a cancelled task shows no picker, and the next pick works.
private func exploreAnswerAtOnce() async {
    let scenario = "one pick(), the picker answering inside present()"
    let names = CancelPointNames()
    let report = await exploreCancelPoints(
        scenario,
        world: { _ in
            announce("\(scenario), \(names.next().name)", trapMeans: Bugs.crashed)
            return PickerWorld(answeringAtOnce: friend(1))
        },
        operation: { @MainActor world in await world.scene { _ in }.bridge.pick() }
    ) { run, world in await checkAnswerAtOnce(run, world) }
    report.record()
}

/// The contract of one pick from a picker that answers at once, and of the pick after it.
@MainActor
private func checkAnswerAtOnce(_ run: CancelPointRun<Contact?>, _ world: PickerWorld) async -> [Violation] {
    guard let (picker, bridge) = world.scene else { return [] }
    let end = pickEnd(run.outcome)
    let shown = picker.presentations.value
    let ended = describePick(end)
    let wanted = describePick(run.isBaseline ? friend(1) : nil)
    if run.isBaseline, end != .some(friend(1)) {
        return [
            Violation(end == nil ? Bugs.immediateAnswerLost : Bugs.wrongAnswer, "pick() \(ended), expected: \(wanted)")
        ]
    }
    if !run.isBaseline, shown > 0 || end != .some(nil) {
        return [
            Violation(
                Bugs.cancelledTaskShowsPicker,
                "pick() in a task cancelled before the call \(ended) and showed the picker \(shown) time(s)")
        ]
    }
    let next: Contact??
    switch await withinHangLimit(hangLimit, { await bridge.pick() }) {
    case .finished(let result): next = try? result.get()
    case .stillSuspended: next = nil
    }
    guard next == .some(friend(1)), picker.presentations.value == shown + 1 else {
        let (nextEnded, nextWanted) = (describePick(next), describePick(friend(1)))
        return [
            Violation(
                next == nil ? Bugs.immediateAnswerLost : Bugs.nextPickTurnedAway,
                "after that, the next pick() \(nextEnded), expected: \(nextWanted)")
        ]
    }
    return []
}

/// Plays the user of one pick: waits for the picker, then answers it, reporting each step.
@MainActor
private func playOnePick(_ answer: UserAnswer, on picker: ContactPicker, in world: PickerWorld, probe: StepProbe)
    async
{
    await picker.presentations.reach(1)
    guard !world.isOver else { return }
    probe.step("pick() shows the picker (present())")
    // Cancelled while the picker is open: what the cancel sent to the main actor (a
    // cancellation handler's hop) runs before the user answers.
    if probe.cancelMade { await MainQueue.drain() }
    probe.step("the user \(answer.rawValue) (the picker is about to tell its delegate)")
    answer.play(on: picker, contact: friend(1))
    probe.step("the picker has told its delegate")
    world.answers.increment()
}

/// Waits until the picker has been shown `count` times or `pick` has ended, whichever comes
/// first (bounded: it pays the hang limit only when neither comes); whether it was shown.
@MainActor
private func shownOrEnded(_ picker: ContactPicker, times count: Int, _ pick: Task<Contact?, Never>) async -> Bool {
    let presentations = picker.presentations
    _ = await withinHangLimit(hangLimit) {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waiting = Locked<CheckedContinuation<Void, Never>?>(continuation)
            let resume: @Sendable () -> Void = {
                let first = waiting.withLock { waiting in
                    defer { waiting = nil }
                    return waiting
                }
                first?.resume()
            }
            Task {
                await presentations.reach(count)
                resume()
            }
            Task {
                _ = await pick.value
                resume()
            }
        }
    }
    return presentations.value >= count
}

/// The contract of one pick at one cancel point, and of the pick after it.
@MainActor
private func checkOnePick(_ run: CancelPointRun<Contact?>, _ world: PickerWorld, answer: UserAnswer) async
    -> [Violation]
{
    guard let (picker, bridge) = world.scene else { return [] }
    let end = pickEnd(run.outcome)
    let shown = picker.presentations.value
    let expected = answer.expected(friend(1))
    let (ended, wanted) = (describePick(end), describePick(expected))
    var violations: [Violation] = []
    switch run.cancelAfter {
    case 0?:
        if shown > 0 || end != .some(nil) {
            violations.append(
                Violation(
                    Bugs.cancelledTaskShowsPicker,
                    "pick() in a task cancelled before the call \(ended) and showed the picker \(shown) time(s)"))
        }
    case _? where end != nil && end != .some(expected) && end != .some(nil):
        // Cancelled once the picker was shown: the reading leaves open which of the two pick() returns.
        violations.append(
            Violation(
                Bugs.cancelWhileOpenBreaksPick,
                "pick() \(ended), expected: \(wanted) or nil"))
    case _ where end == nil:
        let lesson =
            answer == .cancels
            ? Bugs.cancelNeverResumes : run.cancelAfter == nil ? Bugs.neverResumes : Bugs.cancelWhileOpenBreaksPick
        violations.append(Violation(lesson, "pick() \(ended)"))
    case nil:
        if end != .some(expected) {
            violations.append(
                Violation(Bugs.wrongAnswer, "pick() \(ended), expected: \(wanted)"))
        }
    default:
        break
    }
    guard end != nil else { return violations }
    // The user has answered (if the picker was shown); from now on the check plays the user.
    if shown > 0 { _ = await withinHangLimit { await world.answers.reach(1) } }
    world.isOver = true
    let next = Task { await bridge.pick() }
    guard await shownOrEnded(picker, times: shown + 1, next) else {
        violations.append(
            Violation(
                answer == .cancels ? Bugs.userCancelRemembered : Bugs.nextPickTurnedAway,
                "after that pick() ended, the next pick() did not show the picker"))
        return violations
    }
    picker.userSelects(friend(2))
    let nextEnd: Contact??
    switch await withinHangLimit(hangLimit, { await next.value }) {
    case .finished(let result): nextEnd = try? result.get()
    case .stillSuspended: nextEnd = nil
    }
    if nextEnd != .some(friend(2)) {
        let (nextEnded, nextWanted) = (describePick(nextEnd), describePick(friend(2)))
        violations.append(
            Violation(
                nextEnd == nil ? Bugs.neverResumes : Bugs.wrongAnswer,
                "after that, the next pick() \(nextEnded), expected: \(nextWanted)"))
    }
    return violations
}

/// Every failure point of two picks in a row, where the failing one is the pick the user
/// cancels: that pick returns nil, the other returns its contact, and the same two picks made
/// again on the same bridge show the picker and return the user's new answers (no cancel is
/// remembered).
private func exploreUserCancels() async {
    let scenario = "two pick() calls one after the other, the user cancelling one of them"
    // Whether the run without a cancel kept the contract: if it did, whatever goes wrong in a
    // run with one is what the user's cancel left behind.
    var keptWithoutACancel = true
    let report = await exploreFailurePoints(
        scenario,
        world: { plan in
            announce(
                "\(scenario), "
                    + (plan.failingCall.map { "the user cancelling pick \($0)" } ?? "the user choosing both"),
                trapMeans: Bugs.crashed)
            return (world: PickerWorld(repeatsDelegateCalls: false), plan: plan)
        },
        operation: { @MainActor run in
            let bridge = run.world.scene { picker in
                for number in 1...4 {
                    await picker.presentations.reach(number)
                    let cancels = run.plan.nextCallFails("pick \(number): the user cancels")
                    (cancels ? UserAnswer.cancels : .chooses).play(on: picker, contact: friend(number))
                }
            }.bridge
            return [await bridge.pick(), await bridge.pick()]
        }
    ) { run, world in
        guard let first = try? run.outcome?.get(), let again = try? run.recovery?.get() else {
            let lesson = run.isBaseline ? Bugs.neverResumes : Bugs.cancelNeverResumes
            return [Violation(lesson, "the picks were still suspended after \(hangLimit)")]
        }
        let expected = [1, 2].map { $0 == run.failingCall ? nil : friend($0) }
        let remembered = !run.isBaseline && keptWithoutACancel
        var violations: [Violation] = []
        if first != expected {
            let (picks, wanted) = (describePicks(first), describePicks(expected))
            violations.append(
                Violation(
                    remembered ? Bugs.userCancelRemembered : Bugs.wrongAnswer,
                    "the two picks: \(picks), expected: \(wanted)"))
        }
        if again != [friend(3), friend(4)] {
            let (picksAgain, wantedAgain) = (describePicks(again), describePicks([friend(3), friend(4)]))
            violations.append(
                Violation(
                    remembered ? Bugs.userCancelRemembered : Bugs.wrongAnswer,
                    "made again, the user choosing both: \(picksAgain), expected: \(wantedAgain)"))
        }
        let shown = await world.world.scene?.picker.presentations.value ?? 0
        if shown != 4 {
            violations.append(
                Violation(
                    remembered ? Bugs.userCancelRemembered : Bugs.nextPickTurnedAway,
                    "4 pick() calls, one after the other, showed the picker \(shown) time(s)"))
        }
        if run.isBaseline { keptWithoutACancel = violations.isEmpty }
        return violations
    }
    report.record()
}

// MARK: Sequences against a model

/// One step of a sequence.
enum PickStep: String, Sendable, CaseIterable, CustomStringConvertible {
    case pick, pickInCancelledTask, choose, cancel, cancelTask

    var description: String {
        switch self {
        case .pick: "call pick()"
        case .pickInCancelledTask: "call pick() in a task that is already cancelled"
        case .choose: "the user chooses a contact (a new one each step)"
        case .cancel: "the user taps Cancel"
        case .cancelTask: "cancel the task of the waiting pick(), then the user chooses a contact"
        }
    }
}

/// How the contract says a pick ends.
enum PickEnd: Sendable, Equatable {
    case returns(Contact?)
    /// The reading leaves it open: nil at the cancel, or the user's answer.
    case nilOr(Contact)

    /// The line an observation shows for pick `number`, which ended `actually` (`nil`: still
    /// suspended): when it is one of the ends the contract allows, the contract's own line.
    func line(_ number: Int, actually: Contact??) -> String {
        switch self {
        case .returns(let contact) where actually == .some(contact):
            return "pick \(number) \(describePick(contact))"
        case .nilOr(let contact) where actually == .some(nil) || actually == .some(contact):
            return "pick \(number) returned nil or \(contact) (the reading allows both)"
        default:
            return "pick \(number) \(describePick(actually))"
        }
    }
}

/// What one step showed: the picks that ended in it, and how often the picker has been shown.
struct PickObservation: Sendable, Equatable, CustomStringConvertible {
    var ended: [String] = []
    var shown = 0
    var description: String {
        (ended.isEmpty ? "no pick ended" : ended.joined(separator: "; ")) + ", the picker shown \(shown) time(s)"
    }
}

/// The contract as a model: one pick waits at a time, for the open picker.
struct PickModel: Sendable {
    var picks = 0
    var waiting: Int?
    var shown = 0

    /// Applies step `index`; returns which picks end in it, and how.
    mutating func apply(_ step: PickStep, at index: Int) -> [(Int, PickEnd)] {
        switch step {
        case .pick:
            picks += 1
            if waiting != nil { return [(picks, .returns(nil))] }
            waiting = picks
            shown += 1
            return []
        case .pickInCancelledTask:
            picks += 1
            return [(picks, .returns(nil))]
        case .choose, .cancel, .cancelTask:
            guard let answered = waiting else { return [] }
            waiting = nil
            let contact = friend(index + 1)
            return [(answered, step == .choose ? .returns(contact) : step == .cancel ? .returns(nil) : .nilOr(contact))]
        }
    }
}

/// Picks, answers and cancelled tasks on one bridge, against the model.
private let sequenceCheck = ModelCheck<PickStep, PickObservation>(
    "picks, answers and cancels on one ContactPickerBridge", lesson: Bugs.sequenceBroken, length: 6,
    generate: { random in random.pick([.pick, .pick, .pickInCancelledTask, .choose, .cancel, .cancelTask]) },
    real: { steps in await runSequence(steps) },
    model: { steps in
        var model = PickModel()
        return steps.enumerated().map { index, step in
            let ends = model.apply(step, at: index)
            return PickObservation(ended: ends.map { expectedLine($0, $1) }, shown: model.shown)
        }
    })

/// The line the model shows for pick `number`, which ends `end`.
private func expectedLine(_ number: Int, _ end: PickEnd) -> String {
    switch end {
    case .returns(let contact): end.line(number, actually: .some(contact))
    case .nilOr(let contact): end.line(number, actually: .some(.some(contact)))
    }
}

/// The real bridge, step by step. After a step, it waits for what the model expects (bounded:
/// it pays only when that never comes), then lets the main queue run what is left.
@MainActor
private func runSequence(_ steps: [PickStep]) async -> [PickObservation] {
    announce("a sequence: \(steps.map(\.rawValue).joined(separator: ", "))", trapMeans: Bugs.crashed)
    let picker = ContactPicker()
    let bridge = ContactPickerBridge(picker: picker)
    let ended = Locked<Set<Int>>([])
    var reported: Set<Int> = []
    var model = PickModel()
    var tasks: [Int: Task<Contact?, Never>] = [:]
    var observations: [PickObservation] = []
    func start(_ cancelled: Bool) {
        let number = model.picks
        let task = Task {
            let contact = await bridge.pick()
            ended.withLock { _ = $0.insert(number) }
            return contact
        }
        if cancelled { task.cancel() }
        tasks[number] = task
    }
    for (index, step) in steps.enumerated() {
        let waiting = model.waiting
        let ends = model.apply(step, at: index)
        var hung = false
        switch step {
        case .pick, .pickInCancelledTask:
            start(step == .pickInCancelledTask)
            let number = model.picks
            if ends.isEmpty, let task = tasks[number], await !shownOrEnded(picker, times: model.shown, task),
                !ended.withLock({ $0.contains(number) })
            {
                hung = true
            }
        case .choose: picker.userSelects(friend(index + 1))
        case .cancel: picker.userCancels()
        case .cancelTask:
            tasks[waiting ?? model.picks]?.cancel()
            // What the cancel sent to the main actor (a cancellation handler's hop) runs first.
            await MainQueue.drain()
            picker.userSelects(friend(index + 1))
        }
        var observation = PickObservation()
        for (number, end) in ends {
            guard let task = tasks[number] else { continue }
            let actually: Contact??
            switch await withinHangLimit(hangLimit, { await task.value }) {
            case .finished(let result): actually = try? result.get()
            case .stillSuspended:
                actually = nil
                hung = true
            }
            observation.ended.append(end.line(number, actually: actually))
            reported.insert(number)
        }
        // A pick the contract keeps waiting must not have ended.
        await MainQueue.drain()
        for number in ended.withLock({ $0 }).subtracting(reported).sorted() {
            let contact = await tasks[number]?.value
            observation.ended.append("pick \(number) \(describePick(contact))")
            reported.insert(number)
        }
        observation.shown = picker.presentations.value
        observations.append(observation)
        if hung { break }
    }
    return observations
}

@Suite("Chapter 03: the contract at every cancel point, every user cancel, and in sequences against a model")
struct DelegatePickerContractTests {
    @Test(
        "One pick, chosen, cancelled or answered inside present(), with its task cancelled before the call, while the picker is open, as the user answers, after the answer, or never",
        .exposesBug(Bugs.cancelledTaskShowsPicker, Bugs.cancelNeverResumes, Bugs.immediateAnswerLost))
    func onePickAtEveryCancelPoint() async {
        await inChild(.cancelPoints)
    }

    @Test(
        "Two picks in a row, each cancelled by the user in turn, then made again: no cancel is remembered",
        .exposesBug(Bugs.cancelNeverResumes))
    func userCancelsAreNotRemembered() async {
        await inChild(.userCancels)
    }

    @Test(
        "Sequences of picks, answers and cancelled tasks end each pick once, as the model says",
        .exposesBug(Bugs.sequenceBroken))
    func sequencesAgainstTheModel() async {
        await inChild(.sequences)
    }
}
