import WorkbookTesting

private let reading = ChapterReading("09-Cancellation")

/// What can go wrong in this chapter, in the learner's words.
enum Bugs {
    static let resizeIgnoresCancel = reading.lesson(
        "the resize ignores cancellation",
        "the task was cancelled during a resize, and the resize went on with every remaining step",
        section: "Cancellation is cooperative")
    static let requestAfterCancel = reading.lesson(
        "a new request started after the task was cancelled",
        "the loop went on to the next id although its task was already cancelled",
        section: "Where to check")
    static let cancelNotThrown = reading.lesson(
        "a cancelled fetchThumbnails does not throw CancellationError",
        "style 1 stops by throwing CancellationError, so the caller can tell a cancel from a result",
        section: "Two styles: throw, or return what you have")
    static let partialNotReturned = reading.lesson(
        "fetchThumbnailsUntilCancelled does not return the thumbnails it finished",
        "after a cancel, style 2 returns exactly the thumbnails finished before it, in order, without throwing",
        section: "Two styles: throw, or return what you have")
    static let renderNotCancelled = reading.lesson(
        "cancelling the caller does not cancel the render job",
        "the awaiting task was cancelled, but the renderer never heard of it, so the job ran on and the caller kept waiting",
        section: "Bridging a callback with withTaskCancellationHandler")
    static let earlyCancelLost = reading.lesson(
        "a cancel that comes before the render starts is lost",
        "the task was already cancelled when it asked for the render; the job started anyway, nobody cancelled it, and the caller kept waiting",
        section: "When the cancel comes first")
    static let wrongThumbnails = reading.lesson(
        "the thumbnails are wrong",
        "without a cancel, every id should give its thumbnail, fetched and fully resized, in the order of the ids",
        section: "Cancellation is cooperative")
    static let neverReturns = reading.lesson(
        "the call never returns",
        "the caller is still suspended although nothing is holding it",
        section: "Cancellation is cooperative")
}
