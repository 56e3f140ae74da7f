import SimulatedWorld
import Testing

/// Checks that an upload reports its progress: once per chunk, with the chunk's number, in
/// order, and only after the server accepted the chunk.
///
/// Exercise: this check fails against a correct uploader, every time. Run
/// `swift run workbook check 20` to see why, then make it wait for the work instead of
/// for time. Read Chapters/20-TestingConcurrentCode/README.md first.
public func checkProgressIsReported(_ build: UploaderBuild) async throws {
    let server = ChunkServer()
    let uploader = build.makeUploader(server: server)
    let reported = Locked<[Int]>([])

    Task {
        _ = try await uploader.upload(UploadFile(name: "harbour.jpg", chunkCount: 3)) { sent in
            reported.withLock { $0.append(sent) }
        }
    }
    // Give the upload time to finish.
    try await Task.sleep(for: .milliseconds(200))

    #expect(reported.withLock { $0 } == [1, 2, 3], "progress is reported once per chunk, in order")
    #expect(server.received == [1, 2, 3])
}
