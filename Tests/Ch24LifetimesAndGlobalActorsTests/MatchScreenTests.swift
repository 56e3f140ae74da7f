import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch24LifetimesAndGlobalActorsSolution
#else
    import Ch24LifetimesAndGlobalActors
#endif

@Suite("Chapter 24: the match screen's lifetime")
@MainActor
struct MatchScreenTests {
    @Test("A live screen shows each score the feed sends")
    func showsScores() async {
        let world = ScreenWorld()
        let screen = world.screen(for: "final")
        screen.start()
        guard await world.show("1-0", of: "final", on: screen) else { return }
        _ = await world.show("1-1", of: "final", on: screen)
    }

    @Test("start() twice keeps one subscription")
    func startTwice() {
        let world = ScreenWorld()
        let screen = world.screen(for: "final")
        screen.start()
        screen.start()
        if world.feed.subscriptionsOpened != 1 {
            Bugs.startedTwice.record("two calls of start() opened \(world.feed.subscriptionsOpened) subscriptions.")
        }
    }

    @Test(
        "Released on the main actor, the screen has unregistered before the release returns",
        .exposesBug(Bugs.unregisteredLate, Bugs.listeningLeaked))
    func releaseUnregistersAtOnce() async {
        let world = ScreenWorld()
        var screen: MatchScreen? = world.screen(for: "final")
        screen?.start()
        #expect(world.registry.isRegistered("match/final"), "a new MatchScreen registers itself")
        await world.release(&screen)
        #expect(world.registry.changes == [.registered("match/final"), .unregistered("match/final")])
    }

    @Test(
        "Released while listening, the screen stops listening: its feed subscription closes",
        .exposesBug(Bugs.listeningLeaked))
    func releaseStopsListening() async {
        let world = ScreenWorld()
        var screen: MatchScreen? = world.screen(for: "final")
        screen?.start()
        guard await world.show("2-1", of: "final", on: screen!) else { return }
        weak let gone = screen
        screen = nil
        if gone != nil {
            Bugs.screenKeptAlive.record("the test dropped its only reference to the screen, and it still exists.")
            return
        }
        await world.expectSubscriptionsClosed(leaving: 0, after: "releasing the screen")
    }

    @Test(
        "Released off the main actor, the screen unregisters on the main actor and stops listening",
        .exposesBug(Bugs.listeningLeaked))
    nonisolated func releaseOffMainActor() async {
        // In a child process: a deinit that claims the main actor it isn't on stops the process.
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .success, Bugs.deinitTrapped.comment) { [log = log as CrashLog] in
                await log.runScenario { await offMainReleaseScenario() }
            }
        }
        let claimsMainActor = swift6.escapeHatches(in: "MatchScreen.swift").contains { $0.kind == .assumeIsolated }
        log.explain(run, as: claimsMainActor ? Bugs.assumeIsolatedDeinit : Bugs.deinitTrapped)
    }
}

/// In a child process: makes a screen, starts it, and drops the last reference in nonisolated
/// code, then waits (bounded) for the unregistration and the closed subscription.
func offMainReleaseScenario() async {
    let world = await ScreenWorld()
    var screen: MatchScreen? = await world.screen(for: "final")
    await screen?.start()
    // The last reference goes away here, in nonisolated code: the deinit can't run on the
    // main actor right now, so the runtime runs it there as soon as it can.
    screen = nil
    let registry = world.registry
    let unregistered = await withinHangLimit { await registry.waitForUnregistrations(1) }
    guard case .finished = unregistered else {
        Bugs.neverUnregistered.record("the screen was released off the main actor and never unregistered.")
        return
    }
    let changes = await registry.changes
    #expect(changes == [.registered("match/final"), .unregistered("match/final")])
    await world.expectSubscriptionsClosed(leaving: 0, after: "releasing the screen off the main actor")
}
