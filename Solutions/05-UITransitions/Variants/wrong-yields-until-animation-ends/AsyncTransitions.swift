import SimulatedWorld

extension ScreenHost {
    public func presentAsync(_ screen: Screen) async throws {
        try Task.checkCancellation()
        present(screen)
        // Give the animation time to finish (it takes three frames; yield a few more to be safe).
        for _ in 0..<10 { await Task.yield() }
    }

    public func dismissAsync() async throws {
        try Task.checkCancellation()
        dismiss()
        for _ in 0..<10 { await Task.yield() }
    }
}
