import WorkbookTesting

private let reading = ChapterReading("23-TaskLocalsAndPriority")

/// What can go wrong in this chapter, in the learner's words.
enum Bugs {
    static let traceLost = reading.lesson(
        "a backend call lost the request's trace id",
        "a call made for the request reached the backend with no trace id: Task.detached inherits no task-local values, so the receipt's task had none",
        section: "What a new task inherits")
    static let traceMixedUp = reading.lesson(
        "a backend call carried another request's trace id",
        "each request's calls must carry that request's own trace id, even while other requests are in flight; a task-local value belongs to the task that bound it, a shared variable to nobody",
        section: "withValue: a value for one scope")
    static let receiptNotBackground = reading.lesson(
        "the receipt did not run at background priority",
        "the receipt is sent at .background, so the requests being answered go first; a task created without a priority takes its creator's",
        section: "What a new task inherits")
    static let answerWaitsForReceipt = reading.lesson(
        "the answer waited for the receipt",
        "handle returns as soon as the charge is done; the receipt is sent in a task of its own that nobody waits for",
        section: "Your task")
    static let receiptWithoutCharge = reading.lesson(
        "a receipt was sent for a charge that did not go through",
        "the receipt follows a successful charge; when the charge fails or the request is cancelled first, handle throws and sends no receipt",
        section: "Your task")
    static let wrongAnswer = reading.lesson(
        "handle did not answer with the charge's outcome",
        "handle returns the backend's answer to the charge, or throws the charge's error (CancellationError for a cancelled request)",
        section: "Your task")
    static let userWaitsAtBackground = reading.lesson(
        "the user waited for a prefetch that stayed at background priority",
        "a task at .userInitiated waited for a page being prefetched, yet the prefetch never ran any faster: the runtime raises a task's priority only for a waiter it knows about, one that awaits the task itself (or escalates it by hand)",
        section: "Priority inversion")
    static let prefetchNotBackground = reading.lesson(
        "the prefetch did not start at background priority",
        "a prefetch nobody is waiting for yet runs at .background, behind the work on screen; only a waiter raises it",
        section: "Priority inversion")
    static let fetchedTwice = reading.lesson(
        "a page being prefetched was fetched a second time",
        "load waits for the prefetch already running for its page: one backend call per page, never two",
        section: "Your task")
    static let prefetchCancelledWithLoad = reading.lesson(
        "cancelling one load cancelled the prefetch",
        "a load whose task is cancelled may stop waiting, but the prefetch it waited for goes on: other loads, now or later, still need that page",
        section: "Your task")
    static let failureReplayed = reading.lesson(
        "a failed prefetch was never forgotten",
        "after a prefetch fails, it hands its error to those already waiting, and the next load of the page fetches it again instead of replaying the old error",
        section: "Your task")
    static let wrongPage = reading.lesson(
        "load returned the wrong page",
        "load returns the backend's answer for the page it was asked for, prefetched or not",
        section: "Your task")
    static let neverReturns = reading.lesson(
        "the call never returns",
        "the caller is still suspended although nothing is holding it",
        section: "Your task")
}
