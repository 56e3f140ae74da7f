import SimulatedWorld

/// How many small steps one resize takes.
public let resizeStepCount = 8

/// Resizes `image` in ``resizeStepCount`` small, CPU-bound steps.
public func resizeThumbnail(_ image: Thumbnail, with service: ThumbnailService) throws -> Thumbnail {
    // The learner's reasoning: fetchThumbnails already checks before each id, that's enough.
    var resized = image
    for step in 1...resizeStepCount {
        resized = service.resizeStep(resized, step: step)
    }
    return resized
}
