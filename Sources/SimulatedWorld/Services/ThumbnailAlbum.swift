import Dispatch

/// An album of thumbnails that is NOT safe to use from two tasks at once, like a plain
/// dictionary or a database context. It is deliberately not `Sendable`.
///
/// Instrumented so that the race is seen every time, not once in a thousand runs:
/// - a save reads the album, then writes it back with the new thumbnail. A save that begins
///   while another one is under way counts in ``overlappingSaves``, and the slower of the two
///   writes back what it read before the other one finished, so one thumbnail is lost, as
///   in a real read-modify-write race.
/// - **Rendezvous.** The first time a save comes from a different task than the previous
///   save, that save waits (suspended, at most ``rendezvousLimit``) for one more save to
///   begin. Saves from several tasks at once therefore always overlap. Saves that all come
///   from one task never wait: the rendezvous is never armed for them.
public final class ThumbnailAlbum {
    /// How long the rendezvous waits for a second saver before giving up. Only code that
    /// saves from several tasks one after the other (say, behind a lock) ever waits this long.
    public static let rendezvousLimit: DispatchTimeInterval = .seconds(1)

    private enum Rendezvous {
        case unused
        case armed
        case waiting(CheckedContinuation<Void, Never>)
        case over
    }

    private struct State {
        var thumbnails: [String: Thumbnail] = [:]
        var activeSaves = 0
        var saves = 0
        var overlappingSaves = 0
        var lastSaver: Int?
        var rendezvous = Rendezvous.unused
    }

    /// The album's state, in a lock so that the instrument itself never races, and in a
    /// class of its own so that the rendezvous timer can reach it.
    private final class Storage: Sendable {
        let state = Locked(State())
    }

    private let storage = Storage()

    public init() {}

    /// The thumbnails in the album, by id.
    public var thumbnails: [String: Thumbnail] { storage.state.withLock { $0.thumbnails } }

    /// Saves completed.
    public var saves: Int { storage.state.withLock { $0.saves } }

    /// Saves that began while another save was under way: each one is a data race.
    public var overlappingSaves: Int { storage.state.withLock { $0.overlappingSaves } }

    /// Saves `thumbnail` under its id. Never call it from two tasks at once.
    public func save(_ thumbnail: Thumbnail) async {
        let saver = withUnsafeCurrentTask { $0?.hashValue }
        let (before, waitsForRendezvous) = storage.state.withLock { state in
            state.activeSaves += 1
            if state.activeSaves > 1 { state.overlappingSaves += 1 }
            let armsRendezvous =
                state.activeSaves == 1 && state.lastSaver != nil && state.lastSaver != saver
                && { if case .unused = state.rendezvous { return true } else { return false } }()
            if armsRendezvous { state.rendezvous = .armed }
            state.lastSaver = saver
            return (state.thumbnails, armsRendezvous)
        }
        if waitsForRendezvous { await waitForSecondSaver() }
        let waiter = storage.state.withLock { state -> CheckedContinuation<Void, Never>? in
            var after = before
            after[thumbnail.id] = thumbnail
            state.thumbnails = after
            state.saves += 1
            defer { state.activeSaves -= 1 }
            guard state.activeSaves > 1 else { return nil }
            return Self.takeWaiter(&state)
        }
        waiter?.resume()
    }

    /// Suspends the armed saver until another save has begun and finished, or the limit passes.
    private func waitForSecondSaver() async {
        await withCheckedContinuation { continuation in
            let goOnAtOnce = storage.state.withLock { state -> Bool in
                guard case .armed = state.rendezvous else { return true }
                state.rendezvous = .waiting(continuation)
                return false
            }
            if goOnAtOnce {
                continuation.resume()
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.rendezvousLimit) { [storage] in
                let waiter = storage.state.withLock { state -> CheckedContinuation<Void, Never>? in
                    guard case .waiting(let waiter) = state.rendezvous else { return nil }
                    state.rendezvous = .over
                    return waiter
                }
                waiter?.resume()
            }
        }
    }

    /// Ends the rendezvous for good, returning the waiting saver if there is one.
    private static func takeWaiter(_ state: inout State) -> CheckedContinuation<Void, Never>? {
        switch state.rendezvous {
        case .armed:
            state.rendezvous = .over
            return nil
        case .waiting(let waiter):
            state.rendezvous = .over
            return waiter
        case .unused, .over:
            return nil
        }
    }
}
