import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch18AsyncStreamsSolution
#else
    import Ch18AsyncStreams
#endif

private let reading = ChapterReading("18-AsyncStreams")

/// What can go wrong in this chapter, in the learner's words.
enum Bugs {
    static let liveFixesLost = reading.lesson(
        "live fixes are lost while the consumer is busy",
        "every fix of the route matters: in routeFixes(from:), a buffer that keeps only the newest (or only the oldest) fixes drops the ones that arrive while the recorder is busy with a fix",
        section: "Three buffering policies, three different losses")
    static let routeNeverFinishes = reading.lesson(
        "the live route never finishes when the ride ends",
        "routeFixes(from:) must call finish() when the bike computer sends .rideEnded; otherwise the consumer's loop waits for ever",
        section: "Finishing is the producer's job")
    static let liveLinkLeftOpen = reading.lesson(
        "the live link stays open after the consumer stopped",
        "routeFixes(from:) must close the link (stopLiveFixes()) in continuation.onTermination, which the stream calls as soon as the consumer's task is cancelled (while it waits for the next fix, or before it asks for one), or the stream is released after a break; a check of yield's .terminated comes only with the next fix, and keeps the link open until then",
        section: "When the consumer goes away")
    static let terminationCrashed = reading.lesson(
        "closing the live link crashed",
        "onTermination runs on whatever thread ended the stream, not on the main actor: MainActor.assumeIsolated traps there; hop to the main actor instead",
        section: "onTermination runs where the stream ends")
    static let syncHoldsTooMuch = reading.lesson(
        "the sync holds more fixes in memory than it may",
        "loggedFixes(from:) reads the ride log faster than the sync takes it, and buffers the difference: let the consumer set the pace, reading a fix only when it asks for one",
        section: "Backpressure: let the consumer set the pace")
    static let loggedFixesLost = reading.lesson(
        "the sync loses fixes of the ride log",
        "loggedFixes(from:) must deliver every fix of the log, in order: a bounded buffer in front of a producer that does not wait drops what does not fit",
        section: "Backpressure: let the consumer set the pace")
    static let syncNeverFinishes = reading.lesson(
        "the ride-log sync never finishes",
        "the stream from loggedFixes(from:) must end after the last fix of the log, or the sync waits for ever",
        section: "Finishing is the producer's job")
    static let staleProgress = reading.lesson(
        "the progress bar shows stale progress",
        "after the screen was busy, the next fraction it shows must be the newest one: uploadProgress(of:) should keep only the newest fraction, not every old one (and not none)",
        section: "Only the newest matters")
    static let progressNeverFinishes = reading.lesson(
        "the progress feed never finishes when the upload completes",
        "uploadProgress(of:) must call finish() when the upload sends .completed",
        section: "Finishing is the producer's job")
    static let observerLeft = reading.lesson(
        "the upload keeps reporting to a screen that is gone",
        "when the consumer of uploadProgress(of:) stops, the stream must remove its observer from the upload (in onTermination, or at the latest when yield returns .terminated)",
        section: "When the consumer goes away")
    static let progressSplit = reading.lesson(
        "each progress value reaches only one of the screen's loops",
        "two loops over one AsyncStream share its values: each value goes to whichever loop asks first, so UploadScreen's bar and label each miss some; use one loop for both, or give each its own stream",
        section: "One stream, one consumer")
    static let screenKeepsWatching = reading.lesson(
        "the upload screen keeps watching after close()",
        "close() must cancel the task that follows the upload, so that its stream ends and stops observing the upload",
        section: "One stream, one consumer")
    static let screenShowsAfterClose = reading.lesson(
        "the upload screen shows progress reported after close()",
        "a task cancelled before it starts still runs its loop, and the stream first hands it the values it buffered in the meantime; check Task.isCancelled in the loop before showing a value",
        section: "Cancelled before it starts")
    static let screenSequenceBroken = reading.lesson(
        "the upload screen shows what it should not, or misses what it should",
        "after some sequence of watch(_:), close() and upload events, the bar or the label differed from the contract under \"Your task\": the screen follows the upload it watched last, until that upload completes or close(), shows each of its fractions on both, nothing of any other upload, and leaves no observer behind; the reproducer lists the steps, and what was expected and seen after each",
        section: "Your task")
}

/// A consumer that takes values one at a time and, while held, stays busy with the one it
/// has: it asks for the next only once ``release()`` is called (or its task is cancelled).
final class BusyConsumer<Element: Sendable>: Sendable {
    private let gate = Gate(closed: true)
    private let values = Locked<[Element]>([])
    /// How many values the consumer has taken.
    let taken = ObservedCount()
    /// The consuming task; it ends when the stream ends.
    let task: Task<Void, Never>

    /// Starts consuming `stream` in a task of its own, off the main actor.
    init(_ stream: AsyncStream<Element>) {
        let (gate, values, taken) = (gate, values, taken)
        task = Task.detached {
            for await value in stream {
                values.withLock { $0.append(value) }
                taken.increment()
                try? await gate.pass()  // busy until released (or cancelled)
            }
        }
    }

    /// Every value taken so far, in order.
    var received: [Element] { values.withLock { $0 } }

    /// From now on, the consumer takes each value as soon as it comes.
    func release() { gate.open() }

    /// Waits (bounded) for the stream to end; records `lesson` and returns false if it doesn't.
    func finishes(orRecord lesson: Lesson, _ detail: String) async -> Bool {
        let task = task
        let taken = taken
        // Many values may still be on their way: a slow machine is not a hang while they arrive.
        if case .stillSuspended = await withinHangLimit(hangLimit, progress: { taken.value }, { await task.value }) {
            lesson.record(detail)
            return false
        }
        return true
    }
}

/// Fix numbers, for messages: "#1, #2, #5".
func numbers(_ fixes: [LocationFix]) -> String {
    fixes.isEmpty ? "none" : fixes.map { "#\($0.number)" }.joined(separator: ", ")
}

/// Fractions as percentages, for messages: "10 %, 100 %".
func percentages(_ fractions: [Double]) -> String {
    fractions.isEmpty ? "nothing" : fractions.map { "\(Int(($0 * 100).rounded())) %" }.joined(separator: ", ")
}
