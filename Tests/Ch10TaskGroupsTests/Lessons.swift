import WorkbookTesting

private let reading = ChapterReading("10-TaskGroups")

/// What can go wrong in this chapter, in the learner's words.
enum Bugs {
    static let childrenShareTheAlbum = reading.lesson(
        "child tasks saved into the album at the same time",
        "the album is not thread-safe; two saves overlapped, which is a data race that the @unchecked Sendable box hid from the compiler",
        section: "The escape hatch is the bug")
    static let thumbnailLost = reading.lesson(
        "a thumbnail went missing from the album",
        "two overlapping saves each wrote back what they had read, and the later one erased the other's thumbnail",
        section: "The escape hatch is the bug")
    static let notConcurrent = reading.lesson(
        "the requests do not run at the same time",
        "every request should be in flight at once, one child task per id",
        section: "Task groups: as many children as you need")
    static let siblingsNotCancelled = reading.lesson(
        "when one request failed, the others were not cancelled",
        "the function should throw the failure at once, after cancelling the other requests and waiting for them to end",
        section: "Children share their parent's fate")
    static let callerCancelNotPassedOn = reading.lesson(
        "cancelling fetchAllThumbnails does not cancel its requests",
        "the caller's task was cancelled, but its requests never saw the cancel",
        section: "Children share their parent's fate")
    static let cancelledWithoutReason = reading.lesson(
        "a request was cancelled although nothing failed",
        "when the group's body ends normally, the group waits for its children; it cancels none of them",
        section: "A normal exit waits and cancels nothing")
    static let losersNotCancelled = reading.lesson(
        "the slower mirrors were not cancelled",
        "a mirror answered, but the function went on waiting for the others instead of cancelling them",
        section: "First result wins: cancelAll()")
    static let windowNeverFull = reading.lesson(
        "fewer than maxInFlight requests were in flight",
        "with more ids waiting, the window should always hold exactly maxInFlight requests",
        section: "At most K at a time: a sliding window")
    static let windowTooWide = reading.lesson(
        "more than maxInFlight requests were in flight",
        "the window may never hold more than maxInFlight requests at once",
        section: "At most K at a time: a sliding window")
    static let windowNotSliding = reading.lesson(
        "a finished request was not replaced at once",
        "as soon as one request finishes, the next id should start, without waiting for the others",
        section: "At most K at a time: a sliding window")
    static let errorDropped = reading.lesson(
        "a failed request's error was dropped",
        "a request failed, but the call did not throw; a child's error reaches the parent only through next(), for try await or waitForAll(), and when the group's body returns without asking, the group drops it",
        section: "A normal exit waits and cancels nothing")
    static let startedWhileCancelled = reading.lesson(
        "requests started although the caller was already cancelled",
        "a caller that is already cancelled should start nothing, and a task group does not check for you: addTask in a cancelled task still starts the child, which sees the cancel only once it is running",
        section: "A cancelled group still starts its children")
    static let requestedTwice = reading.lesson(
        "a thumbnail was not requested exactly once",
        "every id should be asked for exactly once, one child task per id",
        section: "Task groups: as many children as you need")
    static let requestedOutOfOrder = reading.lesson(
        "the ids did not start in their order, exactly once each",
        "the window starts the ids in the order given, each one once: the first maxInFlight, then one more each time a request finishes",
        section: "At most K at a time: a sliding window")
    static let wrongThumbnails = reading.lesson(
        "the thumbnails are wrong",
        "every id should give exactly the thumbnail the service sent for it",
        section: "Children return, the parent collects")
    static let neverReturns = reading.lesson(
        "the call never returns",
        "every request was answered, but the caller is still suspended",
        section: "Task groups: as many children as you need")
}
