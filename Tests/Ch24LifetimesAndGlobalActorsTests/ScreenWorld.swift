import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch24LifetimesAndGlobalActorsSolution
#else
    import Ch24LifetimesAndGlobalActors
#endif

/// One test's world for the match screen: its own registry and feed.
@MainActor
struct ScreenWorld {
    let registry = ScreenRegistry()
    let feed = ScoreFeed()

    func screen(for match: String) -> MatchScreen {
        MatchScreen(match: match, registry: registry, feed: feed)
    }

    /// Sends `score` and waits, bounded, until `screen` shows it; records a lesson if it never does.
    func show(
        _ score: String, of match: String, on screen: MatchScreen, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Bool {
        feed.send(score, to: match)
        // The wait runs in a task of its own that may be freed after this returns: it holds the
        // screen weakly, so the test's reference stays the last one.
        let shown = await withinHangLimit { [weak screen] in
            while let screen, await screen.score != score { await Task.yield() }
        }
        guard case .finished = shown else {
            Bugs.scoreNotShown.record(
                "the feed sent \"\(score)\" to \(screen.name), which still showed \(screen.score.map { "\"\($0)\"" } ?? "nothing").",
                sourceLocation: sourceLocation)
            return false
        }
        return true
    }

    /// Releases `screen` (the caller's last reference) on the main actor and checks what its
    /// deinit must have done before the release returned: freed, unregistered once, and (in
    /// a bounded wait) its feed subscription closed, leaving `openAfter` open. Returns whether
    /// all of that held.
    @discardableResult
    func release(
        _ screen: inout MatchScreen?, openAfter: Int = 0, context: String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Bool {
        guard let name = screen?.name else { return false }
        let before = registry.unregistrationCount(of: name)
        let total = registry.changes.filter { if case .unregistered = $0 { true } else { false } }.count
        weak let gone = screen
        screen = nil
        if gone != nil {
            Bugs.screenKeptAlive.record(
                context + "the test dropped its only reference to \(name), and the screen still exists.",
                sourceLocation: sourceLocation)
            return false
        }
        let atRelease = registry.unregistrationCount(of: name) - before
        if atRelease == 0 {
            let registry = registry
            let later = await withinHangLimit { await registry.waitForUnregistrations(total + 1) }
            if case .finished = later {
                Bugs.unregisteredLate.record(
                    context
                        + "when `screen = nil` returned on the main actor, \(name) was still registered; it unregistered only afterwards.",
                    sourceLocation: sourceLocation)
            } else {
                Bugs.neverUnregistered.record(
                    context + "\(name) was released on the main actor and never called registry.unregister(_:).",
                    sourceLocation: sourceLocation)
            }
        } else if atRelease > 1 {
            Bugs.unregisteredTwice.record(
                context + "releasing \(name) unregistered it \(atRelease) times.", sourceLocation: sourceLocation)
        }
        let closed = await expectSubscriptionsClosed(
            leaving: openAfter, after: context + "releasing \(name)", sourceLocation: sourceLocation)
        return atRelease == 1 && closed
    }

    /// Waits, bounded, until at most `open` feed subscriptions are open; records a lesson (and
    /// returns false) if not.
    @discardableResult
    func expectSubscriptionsClosed(
        leaving open: Int, after what: String, sourceLocation: SourceLocation = #_sourceLocation
    )
        async
        -> Bool
    {
        let feed = feed
        let closed = await withinHangLimit { await feed.waitUntilOpen(atMost: open) }
        if case .stillSuspended = closed {
            Bugs.listeningLeaked.record(
                "after \(what), \(feed.openSubscriptions) feed subscription(s) were open where \(open) should be.",
                sourceLocation: sourceLocation)
            return false
        }
        return true
    }
}
