import Foundation
import SimulatedWorld
import Testing
import WorkbookTesting

@Suite("Simulated world: the thumbnail service")
struct ThumbnailServiceTests {
    @Test("Held requests stay in flight together until released")
    func gateHoldsRequests() async throws {
        let service = ThumbnailService(holdingRequests: true)
        async let image = service.fetchImage(id: "a")
        async let metadata = service.fetchMetadata(id: "a")
        let bothInFlight = await withinHangLimit { await service.inFlight.reach(2) }
        guard case .finished = bothInFlight else {
            Issue.record("two held requests never were in flight together")
            service.releaseAll()
            return
        }
        #expect(Set(service.heldRequests.map(\.kind)) == [.image, .metadata])
        service.releaseAll()
        #expect(try await image == .expected(for: "a"))
        #expect(try await metadata == .expected(for: "a"))
        #expect(service.inFlight.value == 0 && service.inFlight.peak == 2)
        #expect(service.finished.value == 2 && service.cancelled.value == 0)
    }

    @Test("Releasing one request leaves the others held")
    func releaseOne() async throws {
        let service = ThumbnailService(holdingRequests: true)
        async let first = service.fetchImage(id: "1")
        async let second = service.fetchImage(id: "2")
        await service.inFlight.reach(2)
        #expect(service.release(.image, id: "2"))
        #expect(try await second == .expected(for: "2"))
        #expect(service.heldRequests == [.init(kind: .image, id: "1")])
        service.releaseAll()
        _ = try await first
    }

    @Test("A held request sees its task's cancellation and throws URLError(.cancelled), as URLSession does")
    func cancellationIsObserved() async {
        let service = ThumbnailService(holdingRequests: true)
        let task = Task { try await service.fetchImage(id: "x") }
        await service.inFlight.reach(1)
        task.cancel()
        await #expect(throws: URLError(.cancelled)) { try await task.value }
        #expect(service.cancelled.value == 1 && service.finished.value == 0 && service.inFlight.value == 0)
    }

    @Test("A request started in a cancelled task fails at once with URLError(.cancelled) and counts as cancelled")
    func startedWhileCancelled() async {
        let service = ThumbnailService()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await service.fetchImage(id: "late")
        }
        await #expect(throws: URLError(.cancelled)) { try await task.value }
        #expect(service.started.value == 1 && service.cancelled.value == 1)
    }

    @Test("An injected failure is thrown by that request only")
    func injectedFailure() async throws {
        let service = ThumbnailService()
        service.fail(.metadata, for: "bad")
        await #expect(throws: ThumbnailServiceError.injectedFailure(id: "bad", request: .metadata)) {
            try await service.fetchMetadata(id: "bad")
        }
        #expect(try await service.fetchImage(id: "bad") == .expected(for: "bad"))
    }

    @Test("Resize steps are counted and the step hook sees each step")
    func resizeSteps() {
        let service = ThumbnailService()
        let seen = ObservedCount()
        service.onResizeStep { _ in seen.increment() }
        var image = Thumbnail.expected(for: "r")
        for step in 1...4 { image = service.resizeStep(image, step: step) }
        #expect(service.resizeSteps.value == 4 && seen.value == 4)
        #expect(image.pixels.count == Thumbnail.expected(for: "r").pixels.count + 4)
    }
}
