import WorkbookTesting

private let reading = ChapterReading("08-AsyncLet")

/// What can go wrong in this chapter, in the learner's words.
enum Bugs {
    // Warm-up: from completion handlers to a loop.
    static let errorSwallowed = reading.lesson(
        "the async fetchThumbnails swallows the error",
        "a request failed, but fetchThumbnails returned a dictionary instead of throwing the error",
        section: "Warm-up: from recursion to a loop")
    static let cancelDoesNotReachRequest = reading.lesson(
        "cancelling fetchThumbnails does not reach its request",
        "the caller's task was cancelled, but the request it was waiting for never saw the cancel, so the caller kept waiting",
        section: "Why wrapping the old function is not enough")
    static let cancelledCallStillFetches = reading.lesson(
        "fetchThumbnails fetches although its task is already cancelled",
        "the caller's task was cancelled before the call, but requests still ran to the end; a request awaited in the caller's task sees that cancel at once and throws",
        section: "Why wrapping the old function is not enough")
    static let wrongThumbnails = reading.lesson(
        "fetchThumbnails returns the wrong thumbnails",
        "every id should map to the thumbnail the service sent for it",
        section: "Warm-up: from recursion to a loop")
    static let notOneAfterTheOther = reading.lesson(
        "fetchThumbnails does not ask for the thumbnails one after the other",
        "the warm-up is a plain loop: one request at a time, in the order of the ids, and none after a failure",
        section: "Warm-up: from recursion to a loop")
    static let warmUpNeverReturns = reading.lesson(
        "fetchThumbnails never returns",
        "the caller is still suspended after every request was answered",
        section: "Warm-up: from recursion to a loop")

    // Main exercise: one thumbnail, two requests.
    static let sequential = reading.lesson(
        "the image and metadata requests run one after the other",
        "the second request starts only when the first has finished, so the caller waits for both in turn",
        section: "Concurrent bindings with async let")
    static let imageOutlivesCall = reading.lesson(
        "the image request outlives the call",
        "the metadata failed and the function threw, but its image request was still running, not cancelled",
        section: "Unstructured tasks outlive their caller")
    static let imageAwaitedFirst = reading.lesson(
        "the function waits for the image before it notices the metadata failed",
        "the metadata request has already failed, but the function is still waiting for the image",
        section: "The order of the awaits")
    static let askedTwice = reading.lesson(
        "the function asks the service for the same thing twice",
        "an async let binding runs its work once: awaiting it again returns the same value, or throws the same error, without a new request",
        section: "Reading an async let twice")
    static let ignoresEarlierCancel = reading.lesson(
        "fetchOneThumbnail runs although its task is already cancelled",
        "the caller's task was cancelled before the call; the call must throw the cancel, and no request may run to the end",
        section: "Concurrent bindings with async let")
    static let pairIgnoresCancel = reading.lesson(
        "a request of one thumbnail runs on after the call was cancelled",
        "cancelling the caller's task reaches every child task of the call: the call must throw the cancel, and a request that starts at the cancel or after it must not run to the end; a request in an unstructured Task {} never hears of the cancel",
        section: "The task tree")
    static let neverFinishes = reading.lesson(
        "the function never finishes",
        "every request was answered, but the caller is still suspended",
        section: "Concurrent bindings with async let")
    static let wrongResult = reading.lesson(
        "the function returns the wrong image or metadata",
        "it should return exactly what the service sent, or throw the service's error",
        section: "Concurrent bindings with async let")
}
