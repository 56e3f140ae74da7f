import SimulatedWorld
import Testing

/// Checks that starting a second upload while the first is still in flight traps: the
/// uploader's contract says one upload at a time.
public func checkSecondUploadTraps(_ build: UploaderBuild) async throws {
    await #expect(processExitsWith: .failure) { [build = build as UploaderBuild] in
        let server = ChunkServer(holdingRequest: 1)
        let uploader = build.makeUploader(server: server)
        try await UploadDependencies.$clock.withValue(InstantClock()) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { _ = try await uploader.upload(UploadFile(name: "a.jpg", chunkCount: 2)) }
                await server.requestIsHeld()
                _ = try await uploader.upload(UploadFile(name: "b.jpg", chunkCount: 2))
                group.cancelAll()
            }
        }
    }
}
