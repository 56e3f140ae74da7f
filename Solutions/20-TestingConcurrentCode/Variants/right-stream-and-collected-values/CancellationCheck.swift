import SimulatedWorld
import Testing

/// Checks that cancelling an upload stops it: no chunk is sent after the cancel, and the
/// upload throws `CancellationError`.
public func checkCancelStopsTheUpload(_ build: UploaderBuild) async throws {
    let server = ChunkServer(holdingRequest: 2)
    let uploader = build.makeUploader(server: server)
    let (progress, reporter) = AsyncStream.makeStream(of: Int.self)

    let upload = Task {
        try await UploadDependencies.$clock.withValue(InstantClock()) {
            try await uploader.upload(UploadFile(name: "city.jpg", chunkCount: 3)) { reporter.yield($0) }
        }
    }
    // Wait for the event "chunk 1 is done"; chunk 2 can't get past the server's gate.
    for await chunk in progress where chunk == 1 { break }
    upload.cancel()
    server.release()

    switch await upload.result {
    case .success(let receipt):
        Issue.record("the cancelled upload returned a receipt for \(receipt.chunksSent) chunks instead of throwing")
    case .failure(let error):
        #expect(error is CancellationError, "a cancelled upload throws CancellationError, not \(error)")
    }
    #expect(server.received == [1], "no chunk is accepted after the cancel")
}
