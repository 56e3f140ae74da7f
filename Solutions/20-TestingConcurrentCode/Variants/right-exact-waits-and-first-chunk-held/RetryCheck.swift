import SimulatedWorld
import Testing

/// Checks that a chunk the network dropped is sent again, after the uploader waited
/// `ChunkedUploader.retryDelay`, and that the upload still succeeds.
public func checkFailedChunkIsRetried(_ build: UploaderBuild) async throws {
    let clock = InstantClock()
    let server = ChunkServer(failingOnceAtChunk: 3)
    let uploader = build.makeUploader(server: server)

    let receipt = try await UploadDependencies.$clock.withValue(clock) {
        try await uploader.upload(UploadFile(name: "forest.jpg", chunkCount: 3))
    }

    #expect(receipt.chunksSent == 3)
    #expect(server.received == [1, 2, 3])
    #expect(server.attempts(ofChunk: 3) == 2)
    // The uploader's only waits: one network crossing per attempt, and the retry delay
    // before the second attempt of chunk 3.
    let latency = ChunkedUploader.latency
    #expect(clock.sleeps == [latency, latency, latency, ChunkedUploader.retryDelay, latency])
}
