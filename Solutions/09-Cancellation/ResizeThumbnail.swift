import SimulatedWorld

/// How many small steps one resize takes.
public let resizeStepCount = 8

/// Resizes `image` in ``resizeStepCount`` small, CPU-bound steps.
/// Throws `CancellationError`, at most one step after its task is cancelled.
public func resizeThumbnail(_ image: Thumbnail, with service: ThumbnailService) throws -> Thumbnail {
    var resized = image
    for step in 1...resizeStepCount {
        // CPU-bound work never suspends, so nothing else will notice the cancel for us.
        try Task.checkCancellation()
        resized = service.resizeStep(resized, step: step)
    }
    return resized
}
