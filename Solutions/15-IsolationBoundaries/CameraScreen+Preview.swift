@preconcurrency import LegacyCameraSDK

extension CameraScreen: CameraSessionDelegate {
    /// The SDK hands over each preview frame here. The preview is UI, so it is drawn on the
    /// main actor.
    nonisolated public func cameraSession(_ session: CameraSession, didOutput frame: CameraFrame) {
        // Fix: this runs on the SDK's queue. MainActor.assumeIsolated does not move the code to the
        // main actor, it only checks that it is there already, and traps when it isn't. Take the
        // Sendable frame number out of the SDK's frame and hand it to the main actor, in order.
        frameNumbers.yield(frame.number)
    }
}
