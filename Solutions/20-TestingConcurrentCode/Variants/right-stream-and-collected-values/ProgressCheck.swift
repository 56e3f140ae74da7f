import SimulatedWorld
import Testing

/// Checks that an upload reports its progress: once per chunk, in order, and only after
/// the server accepted the chunk.
public func checkProgressIsReported(_ build: UploaderBuild) async throws {
    let server = ChunkServer()
    let uploader = build.makeUploader(server: server)
    // Each report goes into a stream, with what the server had accepted at that moment.
    let (reports, reporter) = AsyncStream.makeStream(of: (chunk: Int, accepted: [Int]).self)

    let receipt = try await UploadDependencies.$clock.withValue(InstantClock()) {
        try await uploader.upload(UploadFile(name: "harbour.jpg", chunkCount: 3)) { chunk in
            reporter.yield((chunk, server.received))
        }
    }
    reporter.finish()  // the upload returned: no report can come after this

    var seen: [(chunk: Int, accepted: [Int])] = []
    for await report in reports { seen.append(report) }
    #expect(seen.map(\.chunk) == [1, 2, 3], "progress is reported once per chunk, in order")
    #expect(seen.map(\.accepted) == [[1], [1, 2], [1, 2, 3]], "each report comes after its chunk was accepted")
    #expect(receipt.chunksSent == 3)
}
