import WorkbookTesting

private let reading = ChapterReading("07-AsyncSequences")

/// What can go wrong in this chapter, in the learner's words.
enum Bugs {
    // firstPhoto(reaching:), operators
    static let readsOnAfterAnswer = reading.lesson(
        "firstPhoto(reaching:) keeps reading the feed after it found its answer",
        "a photo reached the threshold, but firstPhoto(reaching:) is still reading the live feed, which may not end for hours; stop at the first match (first(where:), or return from inside the loop)",
        section: "Beyond lines: operators and other sources")
    static let feedNotHungUp = reading.lesson(
        "firstPhoto(reaching:) returned but left the feed connected",
        "the answer was returned, yet the server never saw the client hang up; the line sequence must not outlive the function (don't keep it in a property or a long-lived task)",
        section: "Beyond lines: operators and other sources")
    static let wrongFirstPhoto = reading.lesson(
        "firstPhoto(reaching:) returned the wrong photo",
        "it returns the first update whose count reaches the threshold, skipping lines that don't decode, or nil if the feed ends first",
        section: "Beyond lines: operators and other sources")
    static let firstPhotoHidesDrop = reading.lesson(
        "firstPhoto(reaching:) hides the dropped connection",
        "the connection dropped before any photo reached the threshold, and firstPhoto(reaching:) did not throw the connection's error; nil means the server ended the feed normally, a dropped connection must be thrown",
        section: "Beyond lines: operators and other sources")
    static let firstPhotoIgnoresCancel = reading.lesson(
        "firstPhoto(reaching:) goes on after its task was cancelled",
        "a cancelled firstPhoto(reaching:) must end (return nil, or throw a cancel) and hang up the feed; a for-await loop or first(where:) over the line sequence does both by itself",
        section: "Beyond lines: operators and other sources")
    // followFavorites, the consumer
    static let noLiveUpdates = reading.lesson(
        "the screen does not change while the feed is open",
        "a line arrived, but the screen did not show it; the consumer collects the whole response before it updates the model, so the user sees nothing until the server hangs up",
        section: "One line at a time")
    static let offMainActor = reading.lesson(
        "the model is updated off the main actor",
        "the screen was redrawn from a background thread; make the model @MainActor and await its methods",
        section: "Updates belong on the main actor")
    static let malformedLineEndsFeed = reading.lesson(
        "one malformed line ends the whole feed",
        "a line that is not a favorite update must be skipped and counted (model.skipMalformedLine()), and the lines after it still shown",
        section: "A bad line is not the end")
    static let malformedLineNotCounted = reading.lesson(
        "a malformed line is skipped without being counted",
        "the feed went on, but the line that could not be read was dropped silently; call model.skipMalformedLine() for it, so that the screen can show that lines were lost",
        section: "A bad line is not the end")
    static let connectionErrorHidden = reading.lesson(
        "followFavorites() hides the dropped connection",
        "the connection dropped in the middle of the feed, but followFavorites() returned normally, as if the server had ended it; only a line that can't be decoded is skipped, errors from the sequence itself must still be thrown",
        section: "A bad line is not the end")
    static let followIgnoresCancel = reading.lesson(
        "followFavorites() goes on after its task was cancelled",
        "a cancelled followFavorites() must end (return, or throw a cancel), hang up the feed and show nothing more; a for-await loop over bytes.lines does all that by itself, work handed to another task does not",
        section: "Stop the source when the consumer stops")
    static let drawnAfterEnd = reading.lesson(
        "the screen changes after followFavorites() has ended",
        "when followFavorites() returns or throws, the screen already shows every line it read, and nothing redraws it later; await each update in the loop instead of handing it to a Task of its own",
        section: "Updates belong on the main actor")
    static let feedNeverEnds = reading.lesson(
        "followFavorites() does not return after the feed ends",
        "the server ended the response, but followFavorites() is still suspended",
        section: "One line at a time")
    static let wrongCounts = reading.lesson(
        "the screen does not show the counts the server sent",
        "after the feed ends, the screen shows the latest count of each photo",
        section: "One line at a time")
    // favoriteEventLines, the producer
    static let streamNeverFinishes = reading.lesson(
        "the stream never finishes",
        "the feed completed, but the consumer's for-await loop is still waiting for another line; didCompleteWithError must finish the continuation",
        section: "Every stream must finish")
    static let errorSwallowed = reading.lesson(
        "the feed's error never reaches the consumer",
        "the feed failed, and the consumer must see that error thrown from its for-await loop; use finish(throwing:)",
        section: "Every stream must finish")
    static let upstreamNotCancelled = reading.lesson(
        "the feed keeps running after the consumer stopped",
        "the consumer left its loop, but nobody cancelled the line feed; the server still sends, and the connection stays open for nobody. Cancel it in onTermination",
        section: "Stop the source when the consumer stops")
    static let linesDropped = reading.lesson(
        "lines are dropped while the consumer is busy",
        "lines that arrived while the consumer was busy with an earlier one never reached it; every line is another photo's count, so the stream must keep them all (the default .unbounded buffer)",
        section: "Buffering policies")
    static let crashed = reading.lesson(
        "the favorites code crashed the process",
        "the scenario's child process did not exit cleanly",
        section: "One line at a time")
    static let linesLost = reading.lesson(
        "the stream does not pass on the feed's lines",
        "the consumer should receive every line the server sent, in order",
        section: "Every stream must finish")
}
