import SimulatedWorld
import Testing

/// Checks that an upload reports its progress: once per chunk, in order, and only after
/// the server accepted the chunk.
public func checkProgressIsReported(_ build: UploaderBuild) async throws {
    let server = ChunkServer()
    let uploader = build.makeUploader(server: server)
    // Each report, with what the server had accepted at that moment.
    let reports = Locked<[(chunk: Int, accepted: [Int])]>([])

    let receipt = try await UploadDependencies.$clock.withValue(InstantClock()) {
        try await uploader.upload(UploadFile(name: "lighthouse.jpg", chunkCount: 4)) { chunk in
            let accepted = server.received
            reports.withLock { $0.append((chunk, accepted)) }
        }
    }

    let seen = reports.withLock { $0 }
    #expect(seen.map(\.chunk) == [1, 2, 3, 4], "one report per chunk, in order")
    #expect(
        seen.map(\.accepted) == [[1], [1, 2], [1, 2, 3], [1, 2, 3, 4]], "each report after its chunk was accepted")
    #expect(receipt.chunksSent == 4)
}
