import SimulatedWorld
import Testing

/// Checks that a chunk the network dropped is sent again, after the uploader waited
/// `ChunkedUploader.retryDelay`, and that the upload still succeeds, the server getting each
/// chunk once.
public func checkFailedChunkIsRetried(_ build: UploaderBuild) async throws {
    let server = ChunkServer(failingOnceAtChunk: 2)
    let uploader = build.makeUploader(server: server)
    let clock = InstantClock()

    // Fix: inject a clock the check can read, and await the upload before asserting on
    // anything: the assertions used to run before the upload had sent a single chunk.
    let receipt = try await UploadDependencies.$clock.withValue(clock) {
        try await uploader.upload(UploadFile(name: "forest.jpg", chunkCount: 3))
    }

    #expect(receipt.chunksSent == 3)
    #expect(server.attempts(ofChunk: 2) == 2, "chunk 2 failed once, so it is sent twice")
    #expect(server.received == [1, 2, 3])
    // Fix: the retry must wait. The injected clock remembers every wait, so the check can
    // see the retry delay without waiting ten seconds of real time.
    #expect(clock.sleeps.contains(ChunkedUploader.retryDelay), "the uploader waits before it retries")
}
