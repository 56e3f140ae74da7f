import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch21StartingWorkSolution
#else
    import Ch21StartingWork
#endif

// Chapter 21's contract, explored on its own: sequences of taps (Refresh, Cancel) and
// answers of the service (the request waiting answers or fails) against a reference model
// of what the reading promises under "Your task": every sequence of four steps, and longer
// ones from fixed seeds. After every step the test looks twice: right after the call
// returned, on the same turn of the main actor, and again once every load that can end
// (answered, failed or cancelled) has ended.

/// One step of a sequence: a tap of the user, or the service answering.
enum ScreenStep: String, Sendable, CustomStringConvertible, CaseIterable {
    case refresh, cancel, answer, fail

    var description: String {
        switch self {
        case .refresh: "tap Refresh"
        case .cancel: "tap Cancel"
        case .answer: "the service answers the request waiting"
        case .fail: "the service fails the request waiting"
        }
    }
}

/// What the screen and the service show at one moment: spinner, posts, error shown,
/// requests sent.
struct ScreenState: Sendable, Equatable, CustomStringConvertible {
    var loading = false
    var posts: [String] = []
    var error = false
    var requests = 0

    var description: String {
        "spinner \(loading ? "on" : "off"), posts \(posts), \(error ? "an error" : "no error"), \(requests) requests sent"
    }
}

/// The state right after a step's call returned, and once everything that can end has ended.
struct StepObservation: Sendable, Equatable, CustomStringConvertible {
    var rightAfter: ScreenState
    var settled: ScreenState

    var description: String { "right after: \(rightAfter); once settled: \(settled)" }
}

/// The contract as a model: one request at a time; a tap while loading does nothing. A tap
/// shows its effect right after the call; an answer or a failure only once the load has
/// had its turn.
func modelRun(_ steps: [ScreenStep]) -> [StepObservation] {
    var state = ScreenState()
    var waiting: Int?
    return steps.map { step in
        let before = state
        switch step {
        case .refresh where !state.loading:
            state.requests += 1
            waiting = state.requests
            state.loading = true
        case .cancel:
            waiting = nil
            state.loading = false
        case .answer:
            if let number = waiting {
                state.posts = FeedService.posts(for: number)
                state.error = false
                state.loading = false
                waiting = nil
            }
        case .fail:
            if waiting != nil {
                state.error = true
                state.loading = false
                waiting = nil
            }
        default:
            break
        }
        let tap = step == .refresh || step == .cancel
        return StepObservation(rightAfter: tap ? state : before, settled: state)
    }
}

/// The real screen, step by step.
@MainActor
func realRun(_ steps: [ScreenStep]) async -> [StepObservation] {
    let screen = FeedScreen()
    // Each load the taps started, and the request it had sent when its tap returned.
    var loads: [(task: Task<Void, Never>, request: Int?)] = []
    var letThrough: Set<Int> = []
    var observations: [StepObservation] = []
    func now() -> ScreenState {
        ScreenState(
            loading: screen.model.isLoading, posts: screen.model.posts, error: screen.model.errorMessage != nil,
            requests: screen.service.requests.count)
    }
    for step in steps {
        switch step {
        case .refresh:
            let sentBefore = screen.service.requests.count
            if let load = screen.refresh() {
                let sent = screen.service.requests.count
                loads.append((load, sent > sentBefore ? sent : nil))
            }
        case .cancel:
            screen.model.cancelTapped()
        case .answer, .fail:
            if let number = screen.service.pending.last {
                if step == .answer { screen.service.answer(number) } else { screen.service.fail(number) }
                letThrough.insert(number)
            }
        }
        let rightAfter = now()
        // Every load that can end now: cancelled, or its request let through.
        let ending = loads.filter { load in load.task.isCancelled || load.request.map(letThrough.contains) == true }
        let tasks = ending.map(\.task)
        let ended = await withinHangLimit(hangLimit) { for task in tasks { await task.value } }
        guard case .finished = ended else {
            observations.append(StepObservation(rightAfter: rightAfter, settled: ScreenState(requests: -1)))
            return observations
        }
        loads.removeAll { load in tasks.contains(load.task) }
        observations.append(StepObservation(rightAfter: rightAfter, settled: now()))
    }
    return observations
}

/// The screen against its model, on sequences of `length` steps.
private func screenCheck(length: Int = 8) -> ModelCheck<ScreenStep, StepObservation> {
    ModelCheck(
        "FeedScreenModel", lesson: Bugs.sequenceBroken, length: length,
        generate: { random in random.pick(ScreenStep.allCases) },
        real: { steps in await realRun(steps) },
        model: modelRun)
}

@Suite("Chapter 21: the contract on sequences of taps and answers")
struct StartingWorkContractTests {
    @Test(
        "Every sequence of four taps and answers matches the contract",
        .exposesBug(Bugs.sequenceBroken))
    func everyShortSequence() async {
        let check = screenCheck(length: 4)
        for sequence in everySequence(of: 4, from: ScreenStep.allCases) where await check.mismatch(sequence) != nil {
            // The first sequence that goes wrong, shrunk to a shortest one that still does.
            await check.replay(await check.shrink(sequence)).record()
            return
        }
    }

    @Test(
        "Sequences of taps and answers from fixed seeds match the contract",
        .exposesBug(Bugs.sequenceBroken))
    func sequencesMatchTheModel() async {
        await screenCheck().explore().record()
    }
}
