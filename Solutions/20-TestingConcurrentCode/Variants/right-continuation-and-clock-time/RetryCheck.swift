import SimulatedWorld
import Testing

/// Checks that a chunk the network dropped is sent again, after the uploader waited
/// `ChunkedUploader.retryDelay`, and that the upload still succeeds.
public func checkFailedChunkIsRetried(_ build: UploaderBuild) async throws {
    let clock = InstantClock()
    let server = ChunkServer(failingOnceAtChunk: 2)
    let uploader = build.makeUploader(server: server)

    let receipt = try await UploadDependencies.$clock.withValue(clock) {
        try await uploader.upload(UploadFile(name: "forest.jpg", chunkCount: 3))
    }

    #expect(receipt.chunksSent == 3)
    #expect(server.attempts(ofChunk: 2) == 2)
    // Four network crossings (three chunks, one resent) and one retry delay, in clock time.
    let elapsed = InstantClock.Instant(offset: .zero).duration(to: clock.now)
    #expect(elapsed == ChunkedUploader.latency * 4 + ChunkedUploader.retryDelay)
}
