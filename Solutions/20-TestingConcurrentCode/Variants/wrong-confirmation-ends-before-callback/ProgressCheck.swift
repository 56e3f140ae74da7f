import SimulatedWorld
import Testing

/// Checks that an upload reports its progress: once per chunk, in order, and only after
/// the server accepted the chunk.
public func checkProgressIsReported(_ build: UploaderBuild) async throws {
    let server = ChunkServer()
    let uploader = build.makeUploader(server: server)
    await confirmation("progress is reported once per chunk", expectedCount: 3) { sent in
        Task {
            try await UploadDependencies.$clock.withValue(InstantClock()) {
                _ = try await uploader.upload(UploadFile(name: "harbour.jpg", chunkCount: 3)) { _ in sent() }
            }
        }
    }
}
