import SimulatedWorld

extension ScreenHost {
    public func presentAsync(_ screen: Screen) async throws {
        await withCheckedContinuation { continuation in
            present(screen) { continuation.resume() }
        }
    }

    public func dismissAsync() async throws {
        await withCheckedContinuation { continuation in
            dismiss { continuation.resume() }
        }
    }
}
