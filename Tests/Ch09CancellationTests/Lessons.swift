import WorkbookTesting

private let reading = ChapterReading("09-Cancellation")

/// What can go wrong in this chapter, in the learner's words.
enum Bugs {
    static let resizeIgnoresCancel = reading.lesson(
        "the resize ignores cancellation",
        "the task was cancelled during a resize, and the resize went on with every remaining step",
        section: "Cancellation is cooperative")
    static let halfResized = reading.lesson(
        "a cancelled resize returned a half-resized thumbnail",
        "the resize noticed the cancel and stopped, but returned the thumbnail as it was instead of throwing, so an unfinished thumbnail passed for a finished one",
        section: "Two styles: throw, or return what you have")
    static let requestAfterCancel = reading.lesson(
        "a new request started after the task was cancelled",
        "the task was already cancelled when the request started, so it went to the server for nothing; check for a cancel before each request, the first one included",
        section: "Where to check")
    static let cancelNotThrown = reading.lesson(
        "a cancelled fetchThumbnails does not throw a cancellation error",
        "style 1 stops by throwing (CancellationError from its own checks, or the URLError(.cancelled) of a request that was cut off), so the caller can tell a cancel from a result",
        section: "Two styles: throw, or return what you have")
    static let urlCancelMissed = reading.lesson(
        "URLError(.cancelled) was not recognised as a cancel",
        "a request cut off by the cancel throws URLError(.cancelled), as URLSession's requests do, not CancellationError; style 2 let it out as if it were a failure",
        section: "Telling a cancel from a failure")
    static let failureSwallowed = reading.lesson(
        "a failed request was swallowed as if it were a cancel",
        "only a cancel may end fetchThumbnailsUntilCancelled quietly; a request that failed for another reason must reach the caller as its error, in both styles",
        section: "Telling a cancel from a failure")
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
