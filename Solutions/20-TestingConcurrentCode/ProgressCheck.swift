import SimulatedWorld
import Testing

/// Checks that an upload reports its progress: once per chunk, with the chunk's number, in
/// order, and only after the server accepted the chunk.
public func checkProgressIsReported(_ build: UploaderBuild) async throws {
    let server = ChunkServer()
    let uploader = build.makeUploader(server: server)
    // Fix: the uploader waits on the clock it finds in the task-local dependencies. The
    // real clock makes every chunk take an hour; an InstantClock lets the waits end at once.
    try await UploadDependencies.$clock.withValue(InstantClock()) {
        // Fix: await the upload itself instead of starting it in a task and sleeping. The
        // confirmation fails unless `sent` is called exactly three times before its body
        // returns, and its body returns only once the upload has.
        try await confirmation("progress is reported once per chunk", expectedCount: 3) { sent in
            let receipt = try await uploader.upload(UploadFile(name: "harbour.jpg", chunkCount: 3)) { chunk in
                #expect(server.received.last == chunk, "progress \(chunk) comes after chunk \(chunk) was accepted")
                sent()
            }
            #expect(receipt.chunksSent == 3)
        }
    }
    #expect(server.received == [1, 2, 3])
}
