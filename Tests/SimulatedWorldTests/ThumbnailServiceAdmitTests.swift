import SimulatedWorld
import Testing
import WorkbookTesting

@Suite("Simulated world: admitting requests and the callback face of the thumbnail service")
struct ThumbnailServiceAdmitTests {
    @Test("An admitted request passes the gate whether it is already held or not there yet")
    func admitBeforeAndAfterArrival() async throws {
        let service = ThumbnailService(holdingRequests: true)
        service.admit(.image, id: "early")  // not started yet: passes when it arrives
        #expect(try await service.fetchImage(id: "early") == .expected(for: "early"))

        async let late = service.fetchImage(id: "late")
        async let other = service.fetchImage(id: "other")
        await service.inFlight.reach(2)
        service.admit(.image, id: "late")  // in flight, held or about to be
        #expect(try await late == .expected(for: "late"))
        #expect(service.inFlight.value == 1 && service.finished.value == 2)
        service.releaseAll()
        _ = try await other
    }

    @Test("The callback face delivers the image, or the error, to the completion handler")
    func callbackFace() async {
        let service = ThumbnailService()
        service.fail(.image, for: "bad")
        let good = await withCheckedContinuation { continuation in
            service.fetchImage(id: "good") { continuation.resume(returning: $0) }
        }
        let bad = await withCheckedContinuation { continuation in
            service.fetchImage(id: "bad") { continuation.resume(returning: $0) }
        }
        #expect(good.value == .expected(for: "good"))
        #expect(throws: ThumbnailServiceError.injectedFailure(id: "bad", request: .image)) { try bad.get() }
    }

    @Test("The callback face's request does not see the caller's cancellation")
    func callbackFaceIgnoresCallerCancel() async {
        let service = ThumbnailService(holdingRequests: true)
        let caller = Task {
            await withCheckedContinuation { continuation in
                service.fetchImage(id: "x") { continuation.resume(returning: $0) }
            }
        }
        await service.inFlight.reach(1)
        caller.cancel()
        service.admit(.image, id: "x")
        #expect(await caller.value.value == .expected(for: "x"))
        #expect(service.cancelled.value == 0)
    }
}
