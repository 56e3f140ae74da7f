import SimulatedWorld
import Testing

@Suite("Simulated world: the feed service of chapter 21")
@MainActor
struct FeedServiceTests {
    @Test("An immediate task has sent its request, named, when Task.immediate returns; a queued one has not")
    func sentOnTheCallersTurn() async {
        let service = FeedService()
        let immediate = Task.immediate(name: "now") { _ = try? await service.fetchFeed() }
        #expect(service.requests.map(\.number) == [1] && service.requests.first?.taskName == "now")
        let queued = Task(name: "later") { _ = try? await service.fetchFeed() }
        #expect(service.requests.count == 1)
        service.answer(1)
        service.answer(2)
        await immediate.value
        await queued.value
        #expect(service.requests.map(\.taskName) == ["now", "later"])
        #expect(Set(service.events) == [.sent(1), .sent(2), .answered(1), .answered(2)])
    }

    @Test("A cancel while the request waits wins over an answer given after it")
    func cancelWins() async {
        let service = FeedService()
        let load = Task.immediate { try await service.fetchFeed() }
        load.cancel()
        service.answer(1)
        await #expect(throws: CancellationError.self) { try await load.value }
        #expect(service.events == [.sent(1), .cancelled(1)])
        #expect(service.pending.isEmpty)
    }

    @Test("An answer given before the request is sent, or a failure, is kept for it")
    func answersAhead() async {
        let service = FeedService()
        service.answer(1)
        service.fail(2)
        #expect(await Task { try? await service.fetchFeed() }.value == FeedService.posts(for: 1))
        await #expect(throws: FeedServiceError.unavailable(request: 2)) {
            try await Task { try await service.fetchFeed() }.value
        }
        #expect(service.ended.value == 2)
    }
}
