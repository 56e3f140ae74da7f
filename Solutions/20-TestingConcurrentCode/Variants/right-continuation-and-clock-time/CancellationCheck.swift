import SimulatedWorld
import Testing

/// Waits, once, for a callback to happen: the first `signal()` resumes `wait()`, whichever
/// comes first; later signals do nothing.
final class OneTimeSignal: Sendable {
    private let state = Locked<(signalled: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.signalled else { return nil }
            state.signalled = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let already = state.withLock { state -> Bool in
                if !state.signalled { state.waiter = continuation }
                return state.signalled
            }
            if already { continuation.resume() }
        }
    }
}

/// Checks that cancelling an upload stops it: no chunk is sent after the cancel, and the
/// upload throws `CancellationError`.
public func checkCancelStopsTheUpload(_ build: UploaderBuild) async throws {
    let server = ChunkServer(holdingRequest: 2)
    let uploader = build.makeUploader(server: server)
    let firstChunkDone = OneTimeSignal()

    let upload = Task {
        try await UploadDependencies.$clock.withValue(InstantClock()) {
            try await uploader.upload(UploadFile(name: "city.jpg", chunkCount: 3)) { _ in firstChunkDone.signal() }
        }
    }
    await firstChunkDone.wait()
    upload.cancel()
    server.release()

    await #expect(throws: CancellationError.self) { try await upload.value }
    #expect(server.received == [1])
}
