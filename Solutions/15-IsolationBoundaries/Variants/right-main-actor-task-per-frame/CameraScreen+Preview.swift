@preconcurrency import LegacyCameraSDK

extension CameraScreen: CameraSessionDelegate {
    /// The SDK hands over each preview frame here. The preview is UI, so it is drawn on the
    /// main actor.
    nonisolated public func cameraSession(_ session: CameraSession, didOutput frame: CameraFrame) {
        // A task whose closure is explicitly isolated to the main actor starts there, and such
        // tasks start in the order they were created (SE-0431). The drawing never suspends, so
        // the frames are drawn in that order too.
        let number = frame.number
        Task { @MainActor in
            self.show(frame: number)
        }
    }
}
