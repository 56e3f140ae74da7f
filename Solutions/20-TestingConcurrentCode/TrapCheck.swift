import SimulatedWorld
import Testing

/// Checks that starting a second upload while the first is still in flight traps: the
/// uploader's contract says one upload at a time.
public func checkSecondUploadTraps(_ build: UploaderBuild) async throws {
    // Fix: a trap ends the process it happens in, so the scenario runs in an exit test: a
    // child process whose exit status the check expects to be a failure. What the child
    // needs from here is captured with an explicit type and must be Codable.
    await #expect(processExitsWith: .failure, "a second upload in flight traps") {
        [build = build as UploaderBuild] in
        let server = ChunkServer(holdingRequest: 1)
        let uploader = build.makeUploader(server: server)
        try await UploadDependencies.$clock.withValue(InstantClock()) {
            // The first upload waits at the server; the second starts while it is in flight.
            // (If the second one does not trap, leaving the scope cancels the first.)
            async let _ = uploader.upload(UploadFile(name: "a.jpg", chunkCount: 1))
            await server.requestIsHeld()
            _ = try await uploader.upload(UploadFile(name: "b.jpg", chunkCount: 1))
        }
    }
}
