@preconcurrency import LegacyCameraSDK

extension CameraScreen: @MainActor CameraSessionDelegate {
    /// The SDK hands over each preview frame here. The preview is UI, so it is drawn on the
    /// main actor.
    public func cameraSession(_ session: CameraSession, didOutput frame: CameraFrame) {
        show(frame: frame.number)
    }
}
