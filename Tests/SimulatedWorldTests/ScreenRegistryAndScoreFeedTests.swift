import SimulatedWorld
import Testing
import WorkbookTesting

@Suite("ScreenRegistry, ScoreFeed and StockJournal: chapter 24's world")
struct ScreenRegistryAndScoreFeedTests {
    @Test("The registry counts each registration until its unregistration, and records the order")
    @MainActor
    func registry() async {
        let registry = ScreenRegistry()
        registry.register("a")
        registry.register("a")
        registry.unregister("a")
        #expect(registry.isRegistered("a"))
        registry.unregister("a")
        #expect(!registry.isRegistered("a"))
        #expect(registry.unregistrationCount(of: "a") == 2)
        #expect(registry.changes == [.registered("a"), .registered("a"), .unregistered("a"), .unregistered("a")])
        let reached = await withinHangLimit { await registry.waitForUnregistrations(2) }
        guard case .finished = reached else {
            Issue.record("waitForUnregistrations(2) did not return after two unregistrations")
            return
        }
    }

    @Test("A subscription delivers its match's scores, and closes when its task is cancelled")
    func feedSubscription() async {
        let feed = ScoreFeed()
        let scores = feed.scores(for: "final")
        let other = feed.scores(for: "semi")
        #expect(feed.openSubscriptions == 2)
        let listener = Task { () -> [String] in
            var seen: [String] = []
            for await score in scores { seen.append(score) }
            return seen
        }
        feed.send("1-0", to: "final")
        feed.send("9-9", to: "semi")
        feed.finish("final")
        #expect(await listener.value == ["1-0"])
        let cancelled = Task { for await _ in other {} }
        cancelled.cancel()
        let closed = await withinHangLimit { await feed.waitUntilOpen(atMost: 0) }
        guard case .finished = closed else {
            Issue.record("a cancelled subscriber's subscription stayed open")
            return
        }
        #expect(feed.subscriptionsOpened == 2)
    }

    @Test("The journal notes the actor of each change: none, the main actor, or another")
    func journal() async {
        let journal = StockJournal()
        journal.record("nonisolated")
        await MainActor.run { journal.record("main") }
        await Counter().touch(journal)
        let entries = journal.entries
        #expect(entries.map(\.change) == ["nonisolated", "main", "actor"])
        #expect(entries[0].isolation == nil)
        #expect(entries[1].onMainActor)
        #expect(entries[2].isolation != nil && !entries[2].onMainActor)
    }
}

private actor Counter {
    func touch(_ journal: StockJournal) { journal.record("actor") }
}
