import SimulatedWorld
import Testing

/// Checks that cancelling an upload stops it: no chunk is sent after the cancel, and the
/// upload throws `CancellationError`.
public func checkCancelStopsTheUpload(_ build: UploaderBuild) async throws {
    let server = ChunkServer()
    let uploader = build.makeUploader(server: server)

    let upload = Task {
        try await UploadDependencies.$clock.withValue(InstantClock()) {
            try await uploader.upload(UploadFile(name: "city.jpg", chunkCount: 3))
        }
    }
    let result = await upload.result
    upload.cancel()

    #expect(throws: Never.self, "the upload ended before the cancel") { try result.get() }
    #expect(server.received == [1, 2, 3], "no chunk is sent after the cancel")
}
