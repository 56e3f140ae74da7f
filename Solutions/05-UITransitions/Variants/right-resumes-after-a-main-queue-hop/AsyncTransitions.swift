import Dispatch
import SimulatedWorld

extension ScreenHost {
    public func presentAsync(_ screen: Screen) async throws {
        try Task.checkCancellation()
        await withCheckedContinuation { continuation in
            present(screen) {
                DispatchQueue.main.async { continuation.resume() }
            }
        }
    }

    public func dismissAsync() async throws {
        try Task.checkCancellation()
        await withCheckedContinuation { continuation in
            dismiss {
                DispatchQueue.main.async { continuation.resume() }
            }
        }
    }
}
