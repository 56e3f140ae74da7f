import SimulatedWorld
import Testing

/// Checks that an upload reports its progress: once per chunk, in order, and only after
/// the server accepted the chunk.
public func checkProgressIsReported(_ build: UploaderBuild) async throws {
    let server = ChunkServer()
    let uploader = build.makeUploader(server: server)
    let reported = Locked<[Int]>([])

    Task {
        try await UploadDependencies.$clock.withValue(InstantClock()) {
            _ = try await uploader.upload(UploadFile(name: "harbour.jpg", chunkCount: 3)) { sent in
                reported.withLock { $0.append(sent) }
            }
        }
    }
    // No sleeping: let the upload's task run by yielding until it has had its turns.
    for _ in 0..<100 { await Task.yield() }

    #expect(reported.withLock { $0 } == [1, 2, 3], "progress is reported once per chunk, in order")
    #expect(server.received == [1, 2, 3])
}
