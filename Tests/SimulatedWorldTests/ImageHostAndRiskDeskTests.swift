import SimulatedWorld
import Testing

@Suite("Simulated world: the image host and the risk desk (chapter 14)")
struct ImageHostAndRiskDeskTests {
    @Test("A held download waits for its id to be released; each download is numbered")
    func downloadsWaitForTheirId() async throws {
        let host = ImageHost(holding: true)
        let cat = Task { try await host.download("cat") }
        let dog = Task { try await host.download("dog") }
        await host.inFlight.reach(2)
        host.release("dog")
        let dogImage = try await dog.value
        #expect(dogImage.id == "dog" && host.inFlight.value == 1)
        host.release("cat")
        let catImage = try await cat.value
        #expect(Set([catImage.download, dogImage.download]) == [1, 2])
        // Released ids pass at once from then on.
        #expect(try await host.download("cat") == HostedImage(id: "cat", download: 3))
        #expect(host.downloads(of: "cat") == 2 && host.finished.value == 3 && host.inFlight.peak == 2)
    }

    @Test("fail makes held and later downloads of an id throw, until release")
    func failThenRelease() async throws {
        let host = ImageHost(holding: true)
        let held = Task { try await host.download("cat") }
        await host.started.reach(1)
        host.fail("cat")
        await #expect(throws: ImageHostError.unavailable(id: "cat", download: 1)) { try await held.value }
        await #expect(throws: ImageHostError.self) { try await host.download("cat") }
        host.release("cat")
        #expect(try await host.download("cat").download == 3)
        #expect(host.failed.value == 2 && host.finished.value == 1)
    }

    @Test("A cancelled download throws CancellationError and is counted; releaseAll lets the rest through")
    func cancelAndReleaseAll() async throws {
        let host = ImageHost(holding: true)
        let cancelled = Task { try await host.download("cat") }
        let kept = Task { try await host.download("dog") }
        await host.inFlight.reach(2)
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        host.releaseAll()
        #expect(try await kept.value.id == "dog")
        #expect(try await host.download("bird").id == "bird")
        #expect(host.cancelled.value == 1 && Set(host.requests) == ["cat", "dog", "bird"])
    }

    @Test("Reviews wait for their memo; approve, decline and cancel end them")
    func reviewsWaitForTheirMemo() async throws {
        let desk = RiskDesk(holding: true)
        let rent = Task { try await desk.review(80, memo: "rent") }
        let car = Task { try await desk.review(80, memo: "car") }
        let boat = Task { try await desk.review(500, memo: "boat") }
        await desk.inFlight.reach(3)
        desk.approve("rent")
        try await rent.value
        desk.decline("car")
        await #expect(throws: RiskDeskError.declined(memo: "car")) { try await car.value }
        boat.cancel()
        await #expect(throws: CancellationError.self) { try await boat.value }
        #expect(desk.approved.value == 1 && desk.declined.value == 1 && desk.cancelled.value == 1)
        // A memo decided before its review passes at once.
        desk.approve("bike")
        try await desk.review(10, memo: "bike")
        desk.approveAll()
        try await desk.review(10, memo: "tram")
        #expect(desk.reviews.count == 5 && desk.inFlight.value == 0 && desk.inFlight.peak == 3)
    }

    @Test("A failure plan fails the n-th download or review, and the start hooks see every one as it starts")
    func failurePlanAndStartHooks() async throws {
        let host = ImageHost(holding: false)
        let downloads = Locked<[String]>([])
        host.onDownloadStart { id in downloads.withLock { $0.append(id) } }
        host.failDownloads(per: FailurePlan(failingCall: 2))
        #expect(try await host.download("cat").id == "cat")
        await #expect(throws: ImageHostError.self) { try await host.download("dog") }
        #expect(try await host.download("dog").id == "dog")
        #expect(downloads.withLock { $0 } == ["cat", "dog", "dog"] && host.failed.value == 1)

        let desk = RiskDesk(holding: false)
        let reviews = Locked<[String]>([])
        desk.onReviewStart { memo in reviews.withLock { $0.append(memo) } }
        let plan = FailurePlan(failingCall: 1)
        desk.declineReviews(per: plan)
        await #expect(throws: RiskDeskError.declined(memo: "rent")) { try await desk.review(80, memo: "rent") }
        try await desk.review(80, memo: "rent")
        #expect(reviews.withLock { $0 } == ["rent", "rent"] && plan.calls == ["rent", "rent"])
    }
}
