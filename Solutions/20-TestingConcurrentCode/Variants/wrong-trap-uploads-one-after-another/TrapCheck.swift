import SimulatedWorld
import Testing

/// Checks that starting a second upload while the first is still in flight traps: the
/// uploader's contract says one upload at a time.
public func checkSecondUploadTraps(_ build: UploaderBuild) async throws {
    await #expect(processExitsWith: .failure, "a second upload in flight traps") {
        [build = build as UploaderBuild] in
        let uploader = build.makeUploader(server: ChunkServer())
        try await UploadDependencies.$clock.withValue(InstantClock()) {
            _ = try await uploader.upload(UploadFile(name: "a.jpg", chunkCount: 1))
            _ = try await uploader.upload(UploadFile(name: "b.jpg", chunkCount: 1))
        }
    }
}
