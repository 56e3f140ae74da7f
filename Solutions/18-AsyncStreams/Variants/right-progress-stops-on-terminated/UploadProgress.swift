import SimulatedWorld

/// The upload's progress, for the upload screen: the fraction of the ride file sent so far,
/// until the upload completes. Only the newest fraction matters: a screen that was busy
/// for a moment should jump to it, not replay every older one.
///
/// Unchanged from the exercise, which had it right: `.bufferingNewest(1)` keeps only the
/// newest fraction while the screen is busy, and `onTermination` removes the observer once
/// the screen stops listening.
public func uploadProgress(of upload: RideUpload) -> AsyncStream<Double> {
    let (progress, continuation) = AsyncStream.makeStream(of: Double.self, bufferingPolicy: .bufferingNewest(1))
    let observer = Locked<RideUpload.Observer?>(nil)
    let registered = upload.observeProgress { event in
        switch event {
        case .progress(let fraction):
            // The screen has stopped listening: stop telling it.
            if case .terminated = continuation.yield(fraction), let registered = observer.withLock({ $0 }) {
                upload.removeObserver(registered)
            }
        case .completed:
            continuation.finish()
        }
    }
    observer.withLock { $0 = registered }
    return progress
}
