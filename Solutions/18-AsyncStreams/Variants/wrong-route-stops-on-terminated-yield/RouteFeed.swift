import SimulatedWorld

/// The ride screen's live route: every fix the bike computer records, in order, as it is
/// recorded, until the rider ends the ride on the device.
///
/// The route recorder saves each fix and draws it on the map. It may fall behind for a moment
/// (a save waits for the disk), and no fix may be lost: the route and its distance are made
/// of all of them. When the consumer stops listening (the screen closes and its task is
/// cancelled, or its loop breaks), the live link must close: it drains both batteries.
///
/// Solution: an unbounded buffer, since every fix matters and a live fix comes once a second
/// (a consumer that falls behind for a moment catches up); and `onTermination`, which the
/// stream calls once, however it ends, to close the link.
@MainActor
public func routeFixes(from device: BikeComputer) -> AsyncStream<LocationFix> {
    // `.unbounded`: nothing is dropped while the recorder saves a fix.
    let (fixes, continuation) = AsyncStream.makeStream(of: LocationFix.self, bufferingPolicy: .unbounded)
    // Called on whatever thread ends the stream (a cancel, a release after `break`, finish()):
    // the device is main-actor-only, so hop there instead of calling it in place.
    // Set before the link opens, so that even a ride already over closes it.
    device.startLiveFixes { event in
        switch event {
        case .fix(let fix):
            // Nobody is reading any more: close the link.
            if case .terminated = continuation.yield(fix) { device.stopLiveFixes() }
        case .rideEnded:
            continuation.finish()
        }
    }
    return fixes
}
