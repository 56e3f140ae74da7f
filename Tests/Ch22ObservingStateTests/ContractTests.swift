import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch22ObservingStateSolution
#else
    import Ch22ObservingState
#endif

/// One step of a scenario: what the app does to the player and its observers.
enum PlayerStep: Sendable, Hashable, CustomStringConvertible {
    /// `play(_:)` with the catalogue's track at this index.
    case play(Int)
    /// Two `play(_:)` calls in a row, with no suspension in between: one transaction.
    case playTwice(Int, Int)
    /// A new observer starts iterating `nowPlaying()`.
    case startObserver
    /// The oldest observer still running has its task cancelled.
    case cancelObserver
    /// From now on every observer stays busy after its next value.
    case holdObservers
    /// The busy observers go on.
    case releaseObservers
    /// `shutDown()`; the busy observers finish what they were busy with.
    case shutDown

    var description: String {
        switch self {
        case .play(let index): "play(\(Track.catalogue[index].title))"
        case .playTwice(let first, let second):
            "play(\(Track.catalogue[first].title)); play(\(Track.catalogue[second].title))"
        case .startObserver: "a new observer starts"
        case .cancelObserver: "the oldest running observer's task is cancelled"
        case .holdObservers: "the observers become busy"
        case .releaseObservers: "the busy observers go on"
        case .shutDown: "shutDown()"
        }
    }
}

/// How long a step may take to settle: generous for a correct `nowPlaying()`, which settles
/// as soon as the main actor has run, and short enough that a broken one fails fast.
private let settleLimit: Duration = .milliseconds(150)

/// Runs `steps` on a real player; after each step, describes every observer, in the order they started.
@available(macOS 26.0, *)
@MainActor
private func runOnPlayer(_ steps: [PlayerStep]) async -> [String] {
    let player = Player(playing: Track.catalogue[0])
    var watchers: [Watcher] = []
    var cancelled: Set<Int> = []
    var held = false
    var shutDown = false
    var current = Track.catalogue[0]
    var descriptions: [String] = []
    defer {
        for watcher in watchers {
            watcher.release()
            watcher.task?.cancel()
        }
    }
    for step in steps {
        switch step {
        case .play(let index):
            current = Track.catalogue[index]
            player.play(current)
        case .playTwice(let first, let second):
            player.play(Track.catalogue[first])
            current = Track.catalogue[second]
            player.play(current)
        case .startObserver:
            let watcher = Watcher(player.nowPlaying())
            if held { watcher.hold() }
            watchers.append(watcher)
        case .cancelObserver:
            if let index = watchers.indices.first(where: { !cancelled.contains($0) }) {
                cancelled.insert(index)
                watchers[index].task?.cancel()
            }
        case .holdObservers:
            held = true
            for watcher in watchers { watcher.hold() }
        case .releaseObservers:
            held = false
            for watcher in watchers { watcher.release() }
        case .shutDown:
            shutDown = true
            player.shutDown()
            held = false
            for watcher in watchers { watcher.release() }
        }
        var states: [String] = []
        var broken = false
        for (index, watcher) in watchers.enumerated() {
            let state: String
            if cancelled.contains(index) || shutDown {
                state = await watcher.ends(within: settleLimit) ? "ended" : "still running"
            } else if held {
                state = "busy"
            } else {
                let wanted = NowPlaying(current)
                state =
                    await watcher.sees(within: settleLimit, where: { $0.last == wanted })
                    ? "at \(current.title)" : "stuck at \(watcher.seen.last?.description ?? "nothing")"
            }
            if let torn = watcher.seen.first(where: { !isWhole($0) }) {
                states.append("#\(index + 1) saw the torn \(torn)")
                broken = true
            } else {
                states.append("#\(index + 1) \(state)")
                broken = broken || !["ended", "busy"].contains(state) && !state.hasPrefix("at ")
            }
        }
        descriptions.append(states.isEmpty ? "no observers" : states.joined(separator: ", "))
        if broken { break }  // the first difference is enough; later steps would only wait again
    }
    return descriptions
}

/// The contract: what each observer ends up at after each step.
private func contract(_ steps: [PlayerStep]) -> [String] {
    var observers = 0
    var cancelled: Set<Int> = []
    var held = false
    var shutDown = false
    var current = Track.catalogue[0]
    return steps.map { step in
        switch step {
        case .play(let index): current = Track.catalogue[index]
        case .playTwice(_, let second): current = Track.catalogue[second]
        case .startObserver: observers += 1
        case .cancelObserver:
            if let index = (0..<observers).first(where: { !cancelled.contains($0) }) { cancelled.insert(index) }
        case .holdObservers: held = true
        case .releaseObservers: held = false
        case .shutDown:
            shutDown = true
            held = false
        }
        let states = (0..<observers).map { index in
            let state =
                cancelled.contains(index) || shutDown ? "ended" : held ? "busy" : "at \(current.title)"
            return "#\(index + 1) \(state)"
        }
        return states.isEmpty ? "no observers" : states.joined(separator: ", ")
    }
}

@available(macOS 26.0, *)
private var playerContract: ModelCheck<PlayerStep, String> {
    ModelCheck(
        "Player.nowPlaying()", lesson: Bugs.contractBroken, length: 8,
        generate: { random in
            let tracks = Track.catalogue.count
            switch random.below(14) {
            case 0..<4: return .play(random.below(tracks))
            case 4..<6: return .playTwice(random.below(tracks), random.below(tracks))
            case 6..<9: return .startObserver
            case 9: return .cancelObserver
            case 10: return .holdObservers
            case 11, 12: return .releaseObservers
            default: return .shutDown
            }
        },
        simplify: { step in
            switch step {
            case .playTwice(_, let second): [.play(second)]
            case .play(let index): index > 1 ? [.play(1)] : []
            default: []
            }
        },
        real: { steps in await runOnPlayer(steps) },
        model: contract)
}

@Suite("Chapter 22 contract: nowPlaying() against a model of its contract")
struct NowPlayingContractTests {
    @Test(
        "Operation sequences: after every step each observer is at the newest whole track, busy, or ended",
        .exposesBug(Bugs.contractBroken))
    @available(macOS 26.0, *)
    func operationSequences() async {
        // Seed by seed; the first failing sequence is shrunk and reported (one is enough, and
        // each failing run waits for an observer that never settles).
        let check = playerContract
        for seed in fixedSeeds {
            let steps = check.sequence(seed: seed)
            guard await check.mismatch(steps) != nil else { continue }
            let shrunk = await check.shrink(steps)
            await check.replay(shrunk).record()
            return
        }
    }

    @Test("A scenario with every kind of step meets the contract", .exposesBug(Bugs.contractBroken))
    @available(macOS 26.0, *)
    func everyKindOfStep() async {
        let steps: [PlayerStep] = [
            .startObserver, .play(1), .startObserver, .holdObservers, .playTwice(2, 3), .play(4),
            .releaseObservers, .cancelObserver, .playTwice(5, 1), .startObserver, .shutDown, .startObserver,
        ]
        await playerContract.replay(steps).record()
    }

    @Test(
        "Cancelling busy observers, and shutting down while observers are busy, meets the contract",
        .exposesBug(Bugs.contractBroken))
    @available(macOS 26.0, *)
    func busyObserversLeave() async {
        let steps: [PlayerStep] = [
            .startObserver, .startObserver, .startObserver, .holdObservers, .play(2), .cancelObserver,
            .playTwice(3, 4), .releaseObservers, .holdObservers, .play(5), .shutDown,
        ]
        await playerContract.replay(steps).record()
    }
}
