import SimulatedWorld

/// The ride log, for the sync after the ride: every fix the bike computer recorded, in order,
/// read from the device's memory.
///
/// The sync uploads the fixes in batches, far more slowly than Bluetooth delivers them. The
/// app may hold at most `BikeComputer.appMemoryLimit` fixes that the sync has not taken yet;
/// the device has room for the whole ride, so the rest can wait there.
///
/// Solution: pull, don't push. `AsyncStream(unfolding:)` runs its closure only when the
/// consumer asks for the next fix, so the app reads one fix per request and the rest stay
/// on the device: the consumer's pace is the producer's pace. Returning nil ends the stream.
@MainActor
public func loggedFixes(from device: BikeComputer) -> AsyncStream<LocationFix> {
    AsyncStream(unfolding: { await device.readLoggedFix() })
}
