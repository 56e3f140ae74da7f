import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch22ObservingStateSolution
#else
    import Ch22ObservingState
#endif

private let reading = ChapterReading("22-ObservingState")

/// What can go wrong in this chapter, in the learner's words.
enum Bugs {
    static let tornState = reading.lesson(
        "an observer saw one track's title with another track's length",
        "nowPlaying() must hand out title and length as one value, read after play(_:) has set both: a stream fed once per property shows the new title with the old length in between",
        section: "Transactions: a pair is never torn")
    static let latestMissed = reading.lesson(
        "an observer never sees the track that plays now",
        "an observer that was busy may skip tracks, but the next value it gets must be the newest: a buffer that keeps the oldest value (or a feed that stops after one) leaves it with a track that no longer plays",
        section: "Latest value, not every value")
    static let noCurrentTrack = reading.lesson(
        "a new observer sees nothing until the track changes",
        "the first value of nowPlaying() is the track that plays when the observer starts; a stream that only reports changes leaves a new screen blank",
        section: "The first value: the state as it is")
    static let neverEnds = reading.lesson(
        "observers' loops never end after shutDown()",
        "when the player shuts down, every sequence from nowPlaying() must end, including one asked for after the shutdown; otherwise each observer's task waits for ever",
        section: "When the iteration ends")
    static let valuesShared = reading.lesson(
        "one observer takes the values another one needed",
        "every call of nowPlaying() must give its observer an iteration of its own: two loops over one AsyncStream share its values, so each one misses what the other took",
        section: "Every observer its own iteration")
    static let cancelIgnored = reading.lesson(
        "an observer's loop keeps running after its task was cancelled",
        "when the task that iterates nowPlaying() is cancelled, its loop must end, and the other observers must go on as before",
        section: "When the iteration ends")
    static let contractBroken = reading.lesson(
        "what the observers see breaks the contract of nowPlaying()",
        "after every step, each observer that is not busy must end up at the track that plays now, having seen only whole tracks, and every loop must end once its task is cancelled or the player shuts down",
        section: "Your task")
}

/// An observer of the player, as a screen would be: it iterates one sequence from
/// `nowPlaying()` in a task on the main actor and keeps everything it sees.
@available(macOS 26.0, *)
@MainActor
final class Watcher {
    /// Every value seen, in order.
    private(set) var seen: [NowPlaying] = []
    /// Whether the loop has ended.
    private(set) var ended = false
    private var waiters:
        [Int: (predicate: @Sendable ([NowPlaying]) -> Bool, resume: CheckedContinuation<Void, Never>)] =
            [:]
    private var nextWaiter = 0
    /// The iterating task.
    private(set) var task: Task<Void, Never>?
    /// Whether the watcher stays busy after each value, until ``release()``.
    private var isHeld = false
    private let busy = Gate(closed: true)

    /// Starts iterating `feed`.
    init(_ feed: some AsyncSequence<NowPlaying, Never> & Sendable) {
        task = Task { @MainActor in
            for await value in feed {
                self.record(value)
                // Busy with the value until released. Unless held, the watcher asks for its
                // next value at once, without a suspension in between.
                if self.isHeld { try? await self.busy.pass() }
            }
            self.ended = true
            self.record(nil)
        }
    }

    /// From now on, the watcher stays busy with each value it gets, as a slow screen would.
    func hold() {
        isHeld = true
        busy.close()
    }

    /// The watcher goes on, and takes each value as soon as it comes.
    func release() {
        isHeld = false
        busy.open()
    }

    private func record(_ value: NowPlaying?) {
        if let value { seen.append(value) }
        for (id, waiter) in waiters where ended || waiter.predicate(seen) {
            waiters[id] = nil
            waiter.resume.resume()
        }
    }

    private func until(_ predicate: @escaping @Sendable ([NowPlaying]) -> Bool) async {
        if predicate(seen) || ended { return }
        nextWaiter += 1
        let id = nextWaiter
        await withCheckedContinuation { waiters[id] = (predicate, $0) }
    }

    /// Waits, for at most `limit`, until what the watcher has seen satisfies `predicate`;
    /// returns whether it does (false as well when the loop ended first).
    func sees(within limit: Duration = hangLimit, where predicate: @escaping @Sendable ([NowPlaying]) -> Bool) async
        -> Bool
    {
        _ = await withinHangLimit(limit) { await self.until(predicate) }
        return predicate(seen)
    }

    /// Waits, for at most `limit`, until the loop has ended; returns whether it has.
    func ends(within limit: Duration = hangLimit) async -> Bool {
        guard let task else { return true }
        _ = await withinHangLimit(limit) { await task.value }
        return ended
    }

    /// Waits (bounded) until what the watcher has seen satisfies `predicate`. If it doesn't,
    /// records `lesson` with what the watcher waited for and what it saw, and returns false.
    func waitsToSee(
        _ what: String, orRecord lesson: Lesson, sourceLocation: SourceLocation = #_sourceLocation,
        where predicate: @escaping @Sendable ([NowPlaying]) -> Bool
    ) async -> Bool {
        if await sees(where: predicate) { return true }
        lesson.record(
            "The observer waited for \(what); it saw \(describe(seen)), and "
                + (ended ? "then its loop ended." : "nothing more came."),
            sourceLocation: sourceLocation)
        return false
    }

    /// Waits until the watcher has seen a value, any value, or records `lesson`.
    func seesAFirstValue(orRecord lesson: Lesson, sourceLocation: SourceLocation = #_sourceLocation) async -> Bool {
        await waitsToSee("a first value", orRecord: lesson, sourceLocation: sourceLocation, where: { !$0.isEmpty })
    }

    /// Waits until the watcher sees `track`, or records `lesson`.
    func waitsToSee(_ track: Track, orRecord lesson: Lesson, sourceLocation: SourceLocation = #_sourceLocation)
        async -> Bool
    {
        let wanted = NowPlaying(track)
        return await waitsToSee(
            "\(track)", orRecord: lesson, sourceLocation: sourceLocation, where: { $0.last == wanted })
    }

    /// Waits (bounded) for the loop to end; records `lesson` with `detail` if it doesn't.
    func ends(orRecord lesson: Lesson, _ detail: String, sourceLocation: SourceLocation = #_sourceLocation) async
        -> Bool
    {
        if await ends() { return true }
        lesson.record(
            detail + " The observer saw \(describe(seen)); its loop is still waiting.", sourceLocation: sourceLocation)
        return false
    }

    /// Records ``Bugs/tornState`` for the first value seen whose title and length belong to
    /// different tracks; returns whether every value was whole.
    @discardableResult
    func sawOnlyWholeTracks(sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard let torn = seen.first(where: { !isWhole($0) }) else { return true }
        let titleOf = Track.catalogue.first { $0.title == torn.title }
        let lengthOf = Track.catalogue.first { $0.seconds == torn.seconds }
        Bugs.tornState.record(
            "The observer saw the title \"\(torn.title)\" with \(torn.seconds) s, which is the length of "
                + "\(lengthOf.map { "\"\($0.title)\"" } ?? "no track"), not of \(titleOf.map(\.description) ?? "that title"). "
                + "It saw \(describe(seen)) in all.",
            sourceLocation: sourceLocation)
        return false
    }
}

/// Whether `value` is a title with its own track's length.
func isWhole(_ value: NowPlaying) -> Bool {
    Track.catalogue.contains { NowPlaying($0) == value }
}

/// Values, for messages: "nothing" or "\"Tidal\" (187 s), \"Night Bus\" (244 s)".
func describe(_ values: [NowPlaying]) -> String {
    values.isEmpty ? "nothing" : values.map(\.description).joined(separator: ", ")
}

/// The catalogue's tracks by role, for the scenarios.
enum Tracks {
    static let jingle = Track.catalogue[0]
    static let morningRide = Track.catalogue[1]
    static let nightBus = Track.catalogue[2]
    static let tidal = Track.catalogue[3]
    static let paperPlanes = Track.catalogue[4]
    static let longWayHome = Track.catalogue[5]
}
