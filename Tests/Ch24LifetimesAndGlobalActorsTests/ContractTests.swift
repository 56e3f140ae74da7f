import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch24LifetimesAndGlobalActorsSolution
#else
    import Ch24LifetimesAndGlobalActors
#endif

/// A moment in a screen's life at which the test releases it.
enum ReleasePoint: String, CaseIterable, Sendable {
    case neverStarted = "never started"
    case startedBeforeAnyScore = "started, before any score"
    case afterAScore = "after showing a score"
    case afterTheMatchEnded = "after the match ended and the feed closed"
}

@Suite("Chapter 24 contract: the match screen released at every point of its life")
@MainActor
struct ScreenContractTests {
    @Test(
        "Released at any point of its life, the screen unregisters once, at once, and stops listening",
        .exposesBug(Bugs.unregisteredLate, Bugs.listeningLeaked))
    func everyReleasePoint() async {
        for point in ReleasePoint.allCases {
            let world = ScreenWorld()
            var screen: MatchScreen? = world.screen(for: "semi")
            switch point {
            case .neverStarted:
                break
            case .startedBeforeAnyScore:
                screen?.start()
            case .afterAScore:
                screen?.start()
                guard await world.show("0-1", of: "semi", on: screen!) else { return }
            case .afterTheMatchEnded:
                screen?.start()
                guard await world.show("3-2", of: "semi", on: screen!) else { return }
                world.feed.finish("semi")
                await world.expectSubscriptionsClosed(leaving: 0, after: "the match ended")
            }
            // The first point that fails is enough: the others would repeat its lesson.
            guard await world.release(&screen, context: "[\(point.rawValue)] ") else { return }
            #expect(
                world.registry.changes == [.registered("match/semi"), .unregistered("match/semi")],
                "release point: \(point.rawValue)")
        }
    }

    @Test(
        "Two screens of one match: releasing one leaves the other registered and listening",
        .exposesBug(Bugs.unregisteredLate, Bugs.listeningLeaked))
    func overlappingScreens() async {
        let world = ScreenWorld()
        var first: MatchScreen? = world.screen(for: "derby")
        let second = world.screen(for: "derby")
        first?.start()
        second.start()
        await world.release(&first, openAfter: 1)
        #expect(world.registry.isRegistered("match/derby"), "the second screen of the match is still registered")
        _ = await world.show("1-0", of: "derby", on: second)
    }

    @Test(
        "A screen made and released again and again cleans up every time",
        .exposesBug(Bugs.unregisteredLate, Bugs.listeningLeaked))
    func repeatedScreens() async {
        let world = ScreenWorld()
        for round in 1...3 {
            var screen: MatchScreen? = world.screen(for: "league")
            screen?.start()
            guard await world.show("\(round)-0", of: "league", on: screen!) else { return }
            guard await world.release(&screen, context: "[round \(round)] ") else { return }
        }
        #expect(world.feed.subscriptionsOpened == 3)
    }
}
