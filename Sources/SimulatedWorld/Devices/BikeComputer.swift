/// One GPS fix a bike computer recorded during a ride: the `number`th of the ride, from 1.
public struct LocationFix: Sendable, Hashable, CustomStringConvertible {
    /// Where the fix comes in the ride: 1 for the first one.
    public let number: Int
    public let latitude: Double
    public let longitude: Double

    public init(number: Int) {
        self.number = number
        // A ride along a straight road, a little further north with every fix.
        latitude = 46.5 + Double(number) * 0.0001
        longitude = 6.6
    }

    public var description: String { "fix #\(number)" }
}

/// A simulated bike computer, connected to the app over Bluetooth, modelled on the SDKs of
/// real head units and on Core Location: it is used from the main actor, and it calls its
/// handlers on the main actor.
///
/// It records the ride (``recordFix()``, called by the tests, stands for the rider riding on)
/// and offers it to the app in two ways:
/// - **live**: ``startLiveFixes(_:)`` sends every new fix to a handler, at once, whether the
///   app is ready or not, until ``stopLiveFixes()``. A live link costs battery on both
///   devices; ``liveLinks`` counts the open ones, ``stops`` the calls that closed one.
/// - **the ride log**: the fixes stay in the device's memory. ``transferLog(_:)`` sends the
///   whole log in one burst (the link is fast); ``readLoggedFix()`` reads one fix, when the
///   app asks for it.
///
/// ``delivered`` counts every fix handed to the app, by either way. A test that counts the
/// fixes its consumer has taken knows how many are waiting in the app's memory.
@MainActor
public final class BikeComputer {
    /// What the live link sends.
    public enum Event: Sendable, Equatable {
        /// A new fix.
        case fix(LocationFix)
        /// The rider ended the ride on the device: no more fixes will come.
        case rideEnded
    }

    /// What a log transfer sends.
    public enum LogEvent: Sendable, Equatable {
        /// The next fix of the log.
        case fix(LocationFix)
        /// The whole log has been sent.
        case end
    }

    /// How many fixes the app may keep in memory, delivered and not yet taken by its consumer.
    /// The device has room for the rest: fixes the app has not asked for can wait there.
    public static let appMemoryLimit = 10

    private var fixes: [LocationFix] = []
    private var liveHandler: (@MainActor (Event) -> Void)?
    private var rideEnded = false
    private var logCursor = 0

    /// Fixes handed to the app, live, by a transfer, or read one by one.
    public nonisolated let delivered = ObservedCount()
    /// Open live links (0 or 1).
    public nonisolated let liveLinks = ObservedCount()
    /// Calls to ``stopLiveFixes()`` that closed a live link.
    public nonisolated let stops = ObservedCount()
    /// Calls to ``startLiveFixes(_:)``.
    public nonisolated let starts = ObservedCount()

    public nonisolated init() {}

    // MARK: The app's side

    /// Opens the live link: from now on, every fix the device records is sent to `handler` as
    /// it is recorded, and ``Event/rideEnded`` when the rider ends the ride. Replaces the
    /// handler of a link already open.
    public func startLiveFixes(_ handler: @escaping @MainActor (Event) -> Void) {
        starts.increment()
        if liveHandler == nil { liveLinks.increment() }
        liveHandler = handler
        if rideEnded { handler(.rideEnded) }
    }

    /// Closes the live link, if one is open: fixes recorded from now on are not sent.
    public func stopLiveFixes() {
        guard liveHandler != nil else { return }
        liveHandler = nil
        liveLinks.decrement()
        stops.increment()
    }

    /// Whether a live link is open.
    public var isStreamingLive: Bool { liveHandler != nil }

    /// Sends the ride log, every fix recorded so far, to `handler` at once, then
    /// ``LogEvent/end``. The link is fast: the whole log arrives before this returns.
    public func transferLog(_ handler: @MainActor (LogEvent) -> Void) {
        for fix in fixes {
            delivered.increment()
            handler(.fix(fix))
        }
        handler(.end)
    }

    /// Reads the next fix of the ride log, or nil once every fix has been read. Each call
    /// reads one fix; the others stay in the device until the app asks for them.
    public func readLoggedFix() -> LocationFix? {
        guard logCursor < fixes.count else { return nil }
        defer { logCursor += 1 }
        delivered.increment()
        return fixes[logCursor]
    }

    // MARK: The test's side (the rider)

    /// Records the ride's next fix and, if a live link is open, sends it at once.
    @discardableResult
    public func recordFix() -> LocationFix {
        let fix = LocationFix(number: fixes.count + 1)
        fixes.append(fix)
        if let liveHandler {
            delivered.increment()
            liveHandler(.fix(fix))
        }
        return fix
    }

    /// Records `count` fixes, one after the other.
    public func recordFixes(_ count: Int) {
        for _ in 0..<count { recordFix() }
    }

    /// The rider ends the ride: an open live link is told so.
    public func endRide() {
        rideEnded = true
        liveHandler?(.rideEnded)
    }

    /// Every fix recorded so far.
    public var recorded: [LocationFix] { fixes }
}
