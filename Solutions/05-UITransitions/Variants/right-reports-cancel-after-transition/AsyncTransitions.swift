import SimulatedWorld

extension ScreenHost {
    public func presentAsync(_ screen: Screen) async throws {
        try Task.checkCancellation()
        await withCheckedContinuation { continuation in
            present(screen) { continuation.resume() }
        }
        // The screen is up either way; a cancelled caller learns it now, not later.
        try Task.checkCancellation()
    }

    public func dismissAsync() async throws {
        try Task.checkCancellation()
        await withCheckedContinuation { continuation in
            dismiss { continuation.resume() }
        }
        try Task.checkCancellation()
    }
}
