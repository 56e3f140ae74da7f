/// A simulated upload of a ride file, which reports its progress, like `URLSession`'s
/// progress callbacks.
///
/// The tests drive it: ``report(_:)`` is a progress event (a fraction from 0 to 1),
/// ``complete()`` the end of the upload. Two ways to follow it:
/// - **observers** (``observeProgress(_:)``): each gets every event at once, on the caller's
///   thread, until it is removed with ``removeObserver(_:)``. ``observers`` counts the ones
///   still registered: an observer nobody reads any more is a leak.
/// - **the latest value** (``nextProgress()``): waits for a fraction not yet read and
///   returns the latest one, skipping older ones.
public final class RideUpload: Sendable {
    /// What an observer is told.
    public enum Event: Sendable, Equatable {
        /// The fraction of the file sent so far, from 0 to 1.
        case progress(Double)
        /// The upload has finished: no more events.
        case completed
    }

    /// A registered observer, to pass to ``removeObserver(_:)``.
    public struct Observer: Sendable, Hashable {
        let id: Int
    }

    private struct State {
        var observers: [Int: @Sendable (Event) -> Void] = [:]
        var nextID = 0
        var latest: Double?
        var latestRead = true
        var completed = false
        var reader: CheckedContinuation<Double?, Never>?
    }

    private let state = Locked(State())

    /// Progress events reported so far.
    public let reports = ObservedCount()
    /// Observers registered and not yet removed.
    public let observers = ObservedCount()

    public init() {}

    // MARK: The app's side

    /// Registers `handler` for every event from now on.
    @discardableResult
    public func observeProgress(_ handler: @escaping @Sendable (Event) -> Void) -> Observer {
        let (observer, completed) = state.withLock { state in
            defer { state.nextID += 1 }
            state.observers[state.nextID] = handler
            return (Observer(id: state.nextID), state.completed)
        }
        observers.increment()
        if completed { handler(.completed) }
        return observer
    }

    /// Removes `observer`: it is told nothing more. Safe to call from inside its handler.
    public func removeObserver(_ observer: Observer) {
        let removed = state.withLock { $0.observers.removeValue(forKey: observer.id) }
        if removed != nil { observers.decrement() }
    }

    /// Waits for a fraction not read yet and returns the latest one; returns nil once the
    /// upload has completed and its last fraction was read, or if the calling task is
    /// cancelled. One reader at a time.
    public func nextProgress() async -> Double? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (reader: CheckedContinuation<Double?, Never>) in
                let answer = state.withLock { state -> Double?? in
                    // A cancel that came first: its handler found no reader to resume.
                    if Task.isCancelled { return .some(nil) }
                    if !state.latestRead, let latest = state.latest {
                        state.latestRead = true
                        return latest
                    }
                    if state.completed { return .some(nil) }
                    state.reader = reader
                    return nil
                }
                if let answer { reader.resume(returning: answer) }
            }
        } onCancel: {
            let reader = state.withLock { state in
                defer { state.reader = nil }
                return state.reader
            }
            reader?.resume(returning: nil)
        }
    }

    // MARK: The test's side

    /// The upload has sent `fraction` of the file: every observer is told, at once.
    public func report(_ fraction: Double) {
        let (handlers, reader) = state.withLock { state in
            state.latest = fraction
            state.latestRead = false
            let reader = state.reader
            if reader != nil {
                state.reader = nil
                state.latestRead = true
            }
            return (Array(state.observers.values), reader)
        }
        reports.increment()
        reader?.resume(returning: fraction)
        for handler in handlers { handler(.progress(fraction)) }
    }

    /// The upload has finished: every observer is told, and a waiting reader gets nil.
    public func complete() {
        let (handlers, reader) = state.withLock { state in
            state.completed = true
            defer { state.reader = nil }
            return (Array(state.observers.values), state.reader)
        }
        reader?.resume(returning: nil)
        for handler in handlers { handler(.completed) }
    }
}

/// A piece of the upload screen that shows a fraction: the progress bar, or the "42 %" label.
/// It records every value it showed; the tests read them.
@MainActor
public final class ProgressDisplay {
    /// Every fraction shown, in order.
    public private(set) var shown: [Double] = []
    /// How many times a value was shown.
    public nonisolated let redraws = ObservedCount()
    /// How many times the display showed the upload as complete (a fraction of 1).
    public nonisolated let showedComplete = ObservedCount()

    public nonisolated init() {}

    /// Shows `fraction`.
    public func show(_ fraction: Double) {
        shown.append(fraction)
        redraws.increment()
        if fraction >= 1 { showedComplete.increment() }
    }

    /// The fraction on screen now, or nil if nothing was shown yet.
    public var current: Double? { shown.last }
}
