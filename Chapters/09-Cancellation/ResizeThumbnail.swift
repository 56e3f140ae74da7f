import SimulatedWorld

/// How many small steps one resize takes.
public let resizeStepCount = 8

/// Resizes `image` in ``resizeStepCount`` small, CPU-bound steps.
///
/// Exercise: this never looks at cancellation, so a cancelled caller still pays for every
/// step. Read Chapters/09-Cancellation/README.md.
public func resizeThumbnail(_ image: Thumbnail, with service: ThumbnailService) throws -> Thumbnail {
    var resized = image
    for step in 1...resizeStepCount {
        resized = service.resizeStep(resized, step: step)
    }
    return resized
}
