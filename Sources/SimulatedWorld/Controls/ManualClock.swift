/// A clock for tests (chapter 19): its time moves only when the test says so.
///
/// `now` starts at ``Instant/start`` and stays there until the test calls ``advance(by:)`` or
/// ``advance(to:)``. A task that sleeps on it (`clock.sleep(for:)`, `clock.sleep(until:tolerance:)`,
/// or `Task.sleep(until:clock:)`) stays suspended until the test moves `now` to its deadline
/// or past it. So code that takes its clock as a parameter can be tested without waiting for
/// real time, and without depending on how fast the machine is.
///
/// It keeps the contract of `Clock` as the real clocks do (SE-0329, SE-0374):
/// - a sleep ends once `now` has reached its deadline, never before; a deadline already
///   reached returns at once;
/// - a sleep in a task that is cancelled, before or while it sleeps, throws
///   `CancellationError` (the real clocks throw even when the deadline has passed);
/// - one advance that passes several deadlines resumes their sleepers in deadline order
///   (in the order they went to sleep for equal deadlines); all of them see the new `now`,
///   like a process that woke up late;
/// - time never goes backwards: an advance to an earlier instant does nothing.
///
/// A test first waits until the code under test is really asleep, with
/// ``waitForSleepers(_:)`` or ``waitForSleeper(until:)``, and only then advances. Bound those
/// waits (WorkbookTesting's `awaitResult`): code that sleeps on another clock never
/// sleeps on this one.
public final class ManualClock: Clock {
    public typealias Duration = Swift.Duration

    /// A point in the manual clock's time: how long after the clock's start.
    public struct Instant: InstantProtocol, CustomStringConvertible {
        /// The time since the clock's start.
        public let offset: Swift.Duration

        /// The instant `offset` after the clock's start.
        public init(offset: Swift.Duration) {
            self.offset = offset
        }

        /// The instant at which every manual clock starts.
        public static var start: Instant { Instant(offset: .zero) }

        public func advanced(by duration: Swift.Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        public func duration(to other: Instant) -> Swift.Duration {
            other.offset - offset
        }

        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        // The same operators as the real clocks' instants (InstantProtocol doesn't provide them).

        /// The instant `rhs` after `lhs`.
        public static func + (lhs: Instant, rhs: Swift.Duration) -> Instant { lhs.advanced(by: rhs) }

        /// The instant `rhs` before `lhs`.
        public static func - (lhs: Instant, rhs: Swift.Duration) -> Instant { lhs.advanced(by: .zero - rhs) }

        /// The time from `rhs` to `lhs`.
        public static func - (lhs: Instant, rhs: Instant) -> Swift.Duration { rhs.duration(to: lhs) }

        public static func += (lhs: inout Instant, rhs: Swift.Duration) { lhs = lhs + rhs }

        public static func -= (lhs: inout Instant, rhs: Swift.Duration) { lhs = lhs - rhs }

        public var description: String { "\(offset) after the start" }
    }

    private struct Sleeper {
        let id: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Waiter {
        let isReady: @Sendable ([Instant]) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now: Instant
        var sleepers: [Sleeper] = []
        var cancelledBeforeSleeping: Set<Int> = []
        var nextID = 0
        var waiters: [Waiter] = []
        var woken: [Instant] = []

        /// The deadlines of the suspended sleepers, earliest first.
        var deadlines: [Instant] { sleepers.map(\.deadline).sorted() }

        /// Removes and returns the waiters whose condition now holds.
        mutating func readyWaiters() -> [CheckedContinuation<Void, Never>] {
            let deadlines = deadlines
            let ready = waiters.filter { $0.isReady(deadlines) }.map(\.continuation)
            waiters.removeAll { $0.isReady(deadlines) }
            return ready
        }
    }

    private let state: Locked<State>

    /// A clock at `now` (by default, its start), that moves only when told to.
    public init(now: Instant = .start) {
        state = Locked(State(now: now))
    }

    /// The current instant. It changes only in ``advance(by:)`` and ``advance(to:)``.
    public var now: Instant { state.withLock { $0.now } }

    /// The smallest step the clock reports: one nanosecond, like the real clocks on Linux.
    public var minimumResolution: Swift.Duration { .nanoseconds(1) }

    /// The deadlines of the tasks suspended on this clock right now, earliest first.
    public var deadlines: [Instant] { state.withLock { $0.deadlines } }

    /// The deadlines of the sleepers the clock has woken so far, in the order it resumed them.
    /// (When the woken tasks then run is up to their executors: two tasks resumed in order
    /// may run in either order.)
    public var wokenDeadlines: [Instant] { state.withLock { $0.woken } }

    /// How many tasks are suspended on this clock right now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Suspends until `now` reaches `deadline`. Returns at once if it already has.
    /// Throws `CancellationError` if the task is cancelled, before or while it sleeps;
    /// a cancelled sleeper leaves the clock at once. `tolerance` is ignored: the manual
    /// clock wakes every sleeper exactly when the test moves it.
    public func sleep(until deadline: Instant, tolerance: Swift.Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state -> Int? in
            guard deadline > state.now else { return nil }
            defer { state.nextID += 1 }
            return state.nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (early, ready) = state.withLock {
                    state -> (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) in
                    if state.cancelledBeforeSleeping.remove(id) != nil { return (.failure(CancellationError()), []) }
                    // The clock moved past the deadline between taking a number and getting here.
                    guard deadline > state.now else { return (.success(()), []) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return (nil, state.readyWaiters())
                }
                if let early { continuation.resume(with: early) }
                for waiter in ready { waiter.resume() }
            }
        } onCancel: {
            let (sleeper, ready) = state.withLock { state -> (Sleeper?, [CheckedContinuation<Void, Never>]) in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelledBeforeSleeping.insert(id)
                    return (nil, [])
                }
                let sleeper = state.sleepers.remove(at: index)
                return (sleeper, state.readyWaiters())
            }
            sleeper?.continuation.resume(throwing: CancellationError())
            for waiter in ready { waiter.resume() }
        }
    }

    /// Moves `now` forward by `duration` (a negative duration does nothing), and resumes,
    /// in deadline order, every sleeper whose deadline it reaches.
    public func advance(by duration: Swift.Duration) {
        let target = state.withLock { $0.now.advanced(by: duration) }
        advance(to: target)
    }

    /// Moves `now` forward to `instant` (an earlier instant does nothing), and resumes, in
    /// deadline order, every sleeper whose deadline it reaches.
    public func advance(to instant: Instant) {
        let (due, ready) = state.withLock { state -> ([Sleeper], [CheckedContinuation<Void, Never>]) in
            guard instant > state.now else { return ([], []) }
            state.now = instant
            let due = state.sleepers.filter { $0.deadline <= instant }
                .sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
            state.sleepers.removeAll { $0.deadline <= instant }
            state.woken += due.map(\.deadline)
            return (due, state.readyWaiters())
        }
        for sleeper in due { sleeper.continuation.resume() }
        for waiter in ready { waiter.resume() }
    }

    /// Suspends until at least `count` tasks are asleep on this clock at the same time.
    /// Returns at once if they already are. Not bounded: wrap it in a bounded wait.
    public func waitForSleepers(_ count: Int) async {
        await wait { $0.count >= count }
    }

    /// Suspends until a task is asleep on this clock with exactly `deadline` as its deadline.
    /// Returns at once if one already is. Not bounded: wrap it in a bounded wait.
    public func waitForSleeper(until deadline: Instant) async {
        await wait { $0.contains(deadline) }
    }

    /// Suspends until the deadlines of the tasks asleep on this clock satisfy `isReady`.
    public func wait(until isReady: @escaping @Sendable ([Instant]) -> Bool) async {
        await withCheckedContinuation { continuation in
            let alreadyThere = state.withLock { state -> Bool in
                if isReady(state.deadlines) { return true }
                state.waiters.append(Waiter(isReady: isReady, continuation: continuation))
                return false
            }
            if alreadyThere { continuation.resume() }
        }
    }
}
