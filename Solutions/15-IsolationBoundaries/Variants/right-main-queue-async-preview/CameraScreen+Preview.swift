import Dispatch
@preconcurrency import LegacyCameraSDK

extension CameraScreen: CameraSessionDelegate {
    /// The SDK hands over each preview frame here. The preview is UI, so it is drawn on the
    /// main actor.
    nonisolated public func cameraSession(_ session: CameraSession, didOutput frame: CameraFrame) {
        // The main queue runs its blocks first in, first out, and its closures on the main actor.
        let number = frame.number
        DispatchQueue.main.async {
            self.show(frame: number)
        }
    }
}
