import WorkbookTesting

private let reading = ChapterReading("21-StartingWork")

/// What can go wrong in this chapter, in the learner's words.
enum Bugs {
    static let spinnerLate = reading.lesson(
        "the spinner is not on when refreshTapped() returns",
        "refreshTapped() started a task that had not run yet when it returned: a Task { } started on the main actor waits until the code that started it gives the main actor up, so the screen drew one more frame without its spinner",
        section: "Task { } starts later")
    static let requestLate = reading.lesson(
        "the request is not sent when refreshTapped() returns",
        "when refreshTapped() returned, the service had not seen the request yet: the task that sends it had not started. Task.immediate runs the task at once, up to its first suspension",
        section: "Starting at once: Task.immediate")
    static let doubleTapTwoRequests = reading.lesson(
        "a double tap sends two requests",
        "the second tap came before the first tap's task had turned the spinner on, so the guard `!isLoading` let it through, and each tap sent its own request",
        section: "Task { } starts later")
    static let sentAfterCancel = reading.lesson(
        "a request is sent after the user cancelled",
        "Refresh and then Cancel in one turn of the main actor: the load had not started when Cancel ran, so the request went out afterwards, from a task already cancelled",
        section: "Order: what SE-0431 promises")
    static let cancelMissed = reading.lesson(
        "Cancel does not cancel the load in progress",
        "after Cancel, the request in flight went on and its posts reached the screen: Cancel must cancel the task that sent it",
        section: "Your task")
    static let spinnerAfterCancel = reading.lesson(
        "the spinner stays on after Cancel",
        "when cancelTapped() returned, the spinner was still on: Cancel turns it off at once, it doesn't wait for the cancelled task to notice",
        section: "Your task")
    static let staleReset = reading.lesson(
        "a cancelled load turns off the spinner of a newer load",
        "Refresh, Cancel, Refresh: the first load noticed its cancel after the second load had started, and its cleanup turned the spinner off while the second request was still loading",
        section: "A cancelled load leaves the screen alone")
    static let cancelledLoadShows = reading.lesson(
        "a cancelled load still shows its result",
        "the service had already answered (or failed) when Cancel came, but the load had not had the main actor back yet; Cancel wins: a load cancelled by then must leave the screen as Cancel left it",
        section: "A cancelled load leaves the screen alone")
    static let refreshStuck = reading.lesson(
        "Refresh does nothing after a load has ended",
        "a tap on Refresh after the last load had ended sent no request: an immediate task that never really suspends runs to its end before Task.immediate returns, so code after the call (storing the handle, say) runs after the task's cleanup",
        section: "Starting at once: Task.immediate")
    static let cancelShowsError = reading.lesson(
        "a cancel shows an error message",
        "the user cancelled, and the screen showed an error as if the request had failed: a cancel is not a failure",
        section: "Your task")
    static let unnamedTask = reading.lesson(
        "the refresh task has no name",
        "the service logged the request as sent by an unnamed task; name the task \"Refresh feed\" (Task(name:), Task.immediate(name:)) so that it can be told apart in a debugger and in logs",
        section: "Naming tasks")
    static let wrongOutcome = reading.lesson(
        "the screen shows the wrong result",
        "after a refresh ends, the screen shows the posts of the last request that succeeded, an error message only if the last refresh failed, and no spinner",
        section: "Your task")
    static let sequenceBroken = reading.lesson(
        "a sequence of taps leaves the screen in the wrong state",
        "after some sequence of taps and answers, the screen or the service differed from the contract under \"Your task\": the reproducer lists the steps, and what was expected and seen after each",
        section: "Your task")
    static let loadNeverEnds = reading.lesson(
        "a load never ends",
        "a task the screen started was still running long after the service had answered or cancelled its request",
        section: "Your task")
}
