import SimulatedWorld
import Testing

/// Checks that an upload reports its progress: once per chunk, in order, and only after
/// the server accepted the chunk.
public func checkProgressIsReported(_ build: UploaderBuild) async throws {
    let server = ChunkServer()
    let uploader = build.makeUploader(server: server)
    let reported = Locked<[Int]>([])
    let receipt = try await UploadDependencies.$clock.withValue(InstantClock()) {
        try await uploader.upload(UploadFile(name: "harbour.jpg", chunkCount: 3)) { chunk in
            reported.withLock { $0.append(chunk) }
        }
    }
    #expect(reported.withLock { $0 } == [1, 2, 3], "progress is reported once per chunk, in order")
    #expect(receipt.chunksSent == 3)
    #expect(server.received == [1, 2, 3])
}
