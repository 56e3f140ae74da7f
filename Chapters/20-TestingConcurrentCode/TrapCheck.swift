import SimulatedWorld
import Testing

/// Checks that starting a second upload while the first is still in flight traps: the
/// uploader's contract says one upload at a time.
///
/// Exercise: this check passes against every uploader, the broken one too. Run
/// `swift run workbook check 20`.
public func checkSecondUploadTraps(_ build: UploaderBuild) async throws {
    // A trap would end the whole test run, so the best this check can do is make sure
    // that uploads one after the other work.
    let uploader = build.makeUploader(server: ChunkServer())
    try await UploadDependencies.$clock.withValue(InstantClock()) {
        _ = try await uploader.upload(UploadFile(name: "a.jpg", chunkCount: 1))
        _ = try await uploader.upload(UploadFile(name: "b.jpg", chunkCount: 1))
    }
}
