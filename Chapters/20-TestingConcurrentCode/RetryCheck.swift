import SimulatedWorld
import Testing

/// Checks that a chunk the network dropped is sent again, after the uploader waited
/// `ChunkedUploader.retryDelay`, and that the upload still succeeds, the server getting each
/// chunk once.
///
/// Exercise: this check fails against a correct uploader. Run `swift run workbook check 20`.
public func checkFailedChunkIsRetried(_ build: UploaderBuild) async throws {
    let server = ChunkServer(failingOnceAtChunk: 2)
    let uploader = build.makeUploader(server: server)

    Task {
        let receipt = try await uploader.upload(UploadFile(name: "forest.jpg", chunkCount: 3))
        #expect(receipt.chunksSent == 3)
    }

    #expect(server.attempts(ofChunk: 2) == 2, "chunk 2 failed once, so it is sent twice")
    #expect(server.received == [1, 2, 3])
}
