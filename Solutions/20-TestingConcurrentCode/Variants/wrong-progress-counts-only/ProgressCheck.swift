import SimulatedWorld
import Testing

/// Checks that an upload reports its progress: once per chunk, in order, and only after
/// the server accepted the chunk.
public func checkProgressIsReported(_ build: UploaderBuild) async throws {
    let server = ChunkServer()
    let uploader = build.makeUploader(server: server)
    try await UploadDependencies.$clock.withValue(InstantClock()) {
        try await confirmation("progress is reported once per chunk", expectedCount: 3) { sent in
            let receipt = try await uploader.upload(UploadFile(name: "harbour.jpg", chunkCount: 3)) { _ in sent() }
            #expect(receipt.chunksSent == 3)
        }
    }
    #expect(server.received == [1, 2, 3])
}
