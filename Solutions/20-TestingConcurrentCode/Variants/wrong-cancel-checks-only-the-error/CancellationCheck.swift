import SimulatedWorld
import Testing

/// Checks that cancelling an upload stops it: no chunk is sent after the cancel, and the
/// upload throws `CancellationError`.
public func checkCancelStopsTheUpload(_ build: UploaderBuild) async throws {
    let server = ChunkServer(holdingRequest: 2)
    let uploader = build.makeUploader(server: server)

    let upload = Task {
        try await UploadDependencies.$clock.withValue(InstantClock()) {
            try await uploader.upload(UploadFile(name: "city.jpg", chunkCount: 3))
        }
    }
    await server.requestIsHeld()
    upload.cancel()
    server.release()

    let result = await upload.result
    #expect(throws: CancellationError.self, "a cancelled upload throws CancellationError") { try result.get() }
}
