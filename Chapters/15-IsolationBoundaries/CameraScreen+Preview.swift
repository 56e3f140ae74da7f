@preconcurrency import LegacyCameraSDK

extension CameraScreen: CameraSessionDelegate {
    /// The SDK hands over each preview frame here. The preview is UI, so it is drawn on the
    /// main actor.
    nonisolated public func cameraSession(_ session: CameraSession, didOutput frame: CameraFrame) {
        MainActor.assumeIsolated {
            show(frame: frame.number)
        }
    }
}
