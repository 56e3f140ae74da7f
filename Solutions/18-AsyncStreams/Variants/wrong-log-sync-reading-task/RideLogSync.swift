import SimulatedWorld

/// The ride log, for the sync after the ride: every fix the bike computer recorded, in order,
/// read from the device's memory.
@MainActor
public func loggedFixes(from device: BikeComputer) -> AsyncStream<LocationFix> {
    let (fixes, continuation) = AsyncStream.makeStream(of: LocationFix.self)
    // One fix per read, in the background.
    Task {
        while let fix = device.readLoggedFix() {
            continuation.yield(fix)
        }
        continuation.finish()
    }
    return fixes
}
