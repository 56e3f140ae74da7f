import SimulatedWorld

/// The ride screen's live route: every fix the bike computer records, in order, as it is
/// recorded, until the rider ends the ride on the device.
///
/// The route recorder saves each fix and draws it on the map. It may fall behind for a moment
/// (a save waits for the disk), and no fix may be lost: the route and its distance are made
/// of all of them. When the consumer stops listening (the screen closes and its task is
/// cancelled, or its loop breaks), the live link must close: it drains both batteries.
///
/// Exercise: the fixes come through, and the loop ends with the ride. Run
/// `swift run workbook check 18` (or `swift test --filter Ch18AsyncStreamsTests`) to see what a
/// busy consumer gets, and what the bike computer does after the consumer has gone.
/// Read Chapters/18-AsyncStreams/README.md first.
@MainActor
public func routeFixes(from device: BikeComputer) -> AsyncStream<LocationFix> {
    // The map follows the rider: it needs where the rider is now, not where they were.
    let (fixes, continuation) = AsyncStream.makeStream(
        of: LocationFix.self, bufferingPolicy: .bufferingNewest(1))
    device.startLiveFixes { event in
        switch event {
        case .fix(let fix):
            continuation.yield(fix)
        case .rideEnded:
            continuation.finish()
        }
    }
    return fixes
}
