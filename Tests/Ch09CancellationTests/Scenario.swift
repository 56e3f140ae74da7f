import SimulatedWorld

#if Solutions
    import Ch09CancellationSolution
#else
    import Ch09Cancellation
#endif

/// The thumbnail of `id` as the service sends it, after every resize step.
func fullyResized(_ id: String) -> Thumbnail {
    let scratch = ThumbnailService()
    var image = Thumbnail.expected(for: id)
    for step in 1...resizeStepCount { image = scratch.resizeStep(image, step: step) }
    return image
}

extension ThumbnailService {
    /// Cancels whichever task is resizing when the service's resize step number `step`
    /// (counted over all resizes, from 1) begins.
    func cancelResizingTask(atOverallStep step: Int) {
        let steps = resizeSteps
        onResizeStep { _ in
            if steps.value == step { withUnsafeCurrentTask { $0?.cancel() } }
        }
    }
}
