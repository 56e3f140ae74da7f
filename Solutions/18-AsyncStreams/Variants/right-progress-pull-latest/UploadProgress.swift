import SimulatedWorld

/// The upload's progress, for the upload screen: the fraction of the ride file sent so far,
/// until the upload completes. Only the newest fraction matters: a screen that was busy
/// for a moment should jump to it, not replay every older one.
///
/// Pull-based: each time the screen asks for the next value, `nextProgress()` returns the
/// newest fraction it has not seen (or nil once the upload has completed).
public func uploadProgress(of upload: RideUpload) -> AsyncStream<Double> {
    AsyncStream(unfolding: { await upload.nextProgress() })
}
