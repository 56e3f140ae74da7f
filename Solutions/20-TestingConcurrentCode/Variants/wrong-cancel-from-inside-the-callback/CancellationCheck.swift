import SimulatedWorld
import Testing

/// Checks that cancelling an upload stops it: no chunk is sent after the cancel, and the
/// upload throws `CancellationError`.
public func checkCancelStopsTheUpload(_ build: UploaderBuild) async throws {
    let server = ChunkServer()
    let uploader = build.makeUploader(server: server)

    // No gate needed: the progress callback cancels the upload right after chunk 1.
    let upload = Task {
        try await UploadDependencies.$clock.withValue(InstantClock()) {
            try await uploader.upload(UploadFile(name: "city.jpg", chunkCount: 3)) { chunk in
                if chunk == 1 { withUnsafeCurrentTask { $0?.cancel() } }
            }
        }
    }

    let result = await upload.result
    #expect(throws: CancellationError.self, "a cancelled upload throws CancellationError") { try result.get() }
    #expect(server.received == [1], "no chunk is accepted after the cancel")
}
