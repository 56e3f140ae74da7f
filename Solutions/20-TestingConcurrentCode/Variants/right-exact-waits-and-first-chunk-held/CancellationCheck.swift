import SimulatedWorld
import Testing

/// Checks that cancelling an upload stops it: no chunk is sent after the cancel, and the
/// upload throws `CancellationError`.
public func checkCancelStopsTheUpload(_ build: UploaderBuild) async throws {
    // The first chunk waits at the server: the cancel lands before any chunk is accepted.
    let server = ChunkServer(holdingRequest: 1)
    let uploader = build.makeUploader(server: server)

    let upload = Task {
        try await UploadDependencies.$clock.withValue(InstantClock()) {
            try await uploader.upload(UploadFile(name: "city.jpg", chunkCount: 2))
        }
    }
    await server.requestIsHeld()
    upload.cancel()
    server.release()

    do {
        let receipt = try await upload.value
        Issue.record("the cancelled upload returned a receipt for \(receipt.chunksSent) chunks")
    } catch {
        #expect(error is CancellationError, "a cancelled upload throws CancellationError, not \(error)")
    }
    #expect(server.received.isEmpty, "no chunk is accepted after the cancel")
}
