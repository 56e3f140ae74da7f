import SimulatedWorld

extension ScreenHost {
    public func presentAsync(_ screen: Screen) async throws {
        await withCheckedContinuation { continuation in
            present(screen) { continuation.resume() }
        }
        try Task.checkCancellation()
    }

    public func dismissAsync() async throws {
        await withCheckedContinuation { continuation in
            dismiss { continuation.resume() }
        }
        try Task.checkCancellation()
    }
}
