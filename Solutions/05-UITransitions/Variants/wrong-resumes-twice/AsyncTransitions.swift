import SimulatedWorld

extension ScreenHost {
    public func presentAsync(_ screen: Screen) async throws {
        try Task.checkCancellation()
        await withCheckedContinuation { continuation in
            present(screen) { continuation.resume() }
            continuation.resume()
        }
    }

    public func dismissAsync() async throws {
        try Task.checkCancellation()
        await withCheckedContinuation { continuation in
            dismiss { continuation.resume() }
            continuation.resume()
        }
    }
}
