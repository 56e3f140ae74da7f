import SimulatedWorld
import Testing

/// Checks that cancelling an upload stops it: no chunk is sent after the cancel, and the
/// upload throws `CancellationError`.
///
/// Exercise: this check passes against every uploader, the broken ones too. Run
/// `swift run workbook check 20` to see which broken uploaders it lets through.
public func checkCancelStopsTheUpload(_ build: UploaderBuild) async throws {
    let server = ChunkServer()
    let uploader = build.makeUploader(server: server)

    let upload = Task {
        try await uploader.upload(UploadFile(name: "city.jpg", chunkCount: 3))
    }
    upload.cancel()

    #expect(upload.isCancelled, "the upload was cancelled")
}
