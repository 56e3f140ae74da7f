import SimulatedWorld

/// The upload's progress, for the upload screen: the fraction of the ride file sent so far,
/// until the upload completes. Only the newest fraction matters: a screen that was busy
/// for a moment should jump to it, not replay every older one.
///
/// This one is right as it is: compare it with `routeFixes(from:)`.
public func uploadProgress(of upload: RideUpload) -> AsyncStream<Double> {
    let (progress, continuation) = AsyncStream.makeStream(of: Double.self, bufferingPolicy: .bufferingNewest(1))
    let observer = upload.observeProgress { event in
        switch event {
        case .progress(let fraction):
            continuation.yield(fraction)
        case .completed:
            continuation.finish()
        }
    }
    continuation.onTermination = { _ in upload.removeObserver(observer) }
    return progress
}
